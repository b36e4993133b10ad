package validation

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
)

// flowcontrolMaxHashBits bounds the entropy shuffle sharding needs to
// deal a hand: the hash of a flow has 64 bits, and upstream keeps 4 in
// reserve.
const flowcontrolMaxHashBits = 60

// ValidateFlowSchema checks a FlowSchema: its name, matching precedence,
// priority level reference, distinguisher method and rules.
//
// Upstream: k8s.io/kubernetes/pkg/apis/flowcontrol/validation (ValidateFlowSchema).
func ValidateFlowSchema(fs *flowcontrolv1.FlowSchema) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&fs.ObjectMeta, false, NameIsDNSSubdomain, "metadata")
	spec := fs.Spec
	switch {
	case spec.MatchingPrecedence <= 0:
		errs = append(errs, apierrors.Invalid("spec.matchingPrecedence", spec.MatchingPrecedence, "must be a positive value"))
	case spec.MatchingPrecedence > flowcontrolv1.FlowSchemaMaxMatchingPrecedence:
		errs = append(errs, apierrors.Invalid("spec.matchingPrecedence", spec.MatchingPrecedence,
			fmt.Sprintf("must not be greater than %v", flowcontrolv1.FlowSchemaMaxMatchingPrecedence)))
	}
	if fs.Name == flowcontrolv1.FlowSchemaNameCatchAll && spec.MatchingPrecedence != flowcontrolv1.FlowSchemaMaxMatchingPrecedence {
		errs = append(errs, apierrors.Invalid("spec.matchingPrecedence", spec.MatchingPrecedence,
			fmt.Sprintf("the catch-all FlowSchema must have matchingPrecedence %v", flowcontrolv1.FlowSchemaMaxMatchingPrecedence)))
	}
	if m := spec.DistinguisherMethod; m != nil {
		if m.Type != flowcontrolv1.FlowDistinguisherMethodByUserType && m.Type != flowcontrolv1.FlowDistinguisherMethodByNamespaceType {
			errs = append(errs, apierrors.NotSupported("spec.distinguisherMethod.type", m.Type,
				[]string{string(flowcontrolv1.FlowDistinguisherMethodByNamespaceType), string(flowcontrolv1.FlowDistinguisherMethodByUserType)}))
		}
	}
	if name := spec.PriorityLevelConfiguration.Name; name == "" {
		errs = append(errs, apierrors.Required("spec.priorityLevelConfiguration.name", "must reference a priority level"))
	} else {
		for _, msg := range NameIsDNSSubdomain(name, false) {
			errs = append(errs, apierrors.Invalid("spec.priorityLevelConfiguration.name", name, msg))
		}
	}
	for i, rule := range spec.Rules {
		errs = append(errs, validatePolicyRulesWithSubjects(rule, fmt.Sprintf("spec.rules[%d]", i))...)
	}
	return errs
}

// ValidateFlowSchemaUpdate checks an update of a FlowSchema: its metadata
// as any update's, and the new object as a create's.
func ValidateFlowSchemaUpdate(fs, old *flowcontrolv1.FlowSchema) apierrors.FieldErrors {
	return append(ValidateObjectMetaUpdate(&fs.ObjectMeta, &old.ObjectMeta, "metadata"), ValidateFlowSchema(fs)...)
}

// ValidateFlowSchemaStatus checks the conditions of a FlowSchema's status:
// each has a type, and no type appears twice.
func ValidateFlowSchemaStatus(fs *flowcontrolv1.FlowSchema) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	seen := map[flowcontrolv1.FlowSchemaConditionType]bool{}
	for i, c := range fs.Status.Conditions {
		p := fmt.Sprintf("status.conditions[%d]", i)
		if c.Type == "" {
			errs = append(errs, apierrors.Required(p+".type", "must not be empty"))
		} else if seen[c.Type] {
			errs = append(errs, apierrors.Duplicate(p+".type", c.Type))
		}
		seen[c.Type] = true
	}
	return errs
}

func validatePolicyRulesWithSubjects(rule flowcontrolv1.PolicyRulesWithSubjects, p string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if len(rule.Subjects) == 0 {
		errs = append(errs, apierrors.Required(p+".subjects", "subjects must contain at least one value"))
	}
	if len(rule.ResourceRules) == 0 && len(rule.NonResourceRules) == 0 {
		errs = append(errs, apierrors.Required(p, "at least one of resourceRules and nonResourceRules has to be non-empty"))
	}
	for i, s := range rule.Subjects {
		errs = append(errs, validateFlowSubject(s, fmt.Sprintf("%s.subjects[%d]", p, i))...)
	}
	for i, r := range rule.ResourceRules {
		rp := fmt.Sprintf("%s.resourceRules[%d]", p, i)
		errs = append(errs, validateWildcardList(r.Verbs, rp+".verbs", "verbs", "verbs")...)
		errs = append(errs, validateWildcardList(r.APIGroups, rp+".apiGroups", "resource rules", "api groups")...)
		errs = append(errs, validateWildcardList(r.Resources, rp+".resources", "resource rules", "resources")...)
		if len(r.Namespaces) == 0 && !r.ClusterScope {
			errs = append(errs, apierrors.Required(rp+".namespaces", "resource rules that are not cluster scoped must supply at least one namespace"))
		} else if slices.Contains(r.Namespaces, flowcontrolv1.NamespaceEvery) && len(r.Namespaces) > 1 {
			errs = append(errs, apierrors.Invalid(rp+".namespaces", r.Namespaces, "if '*' is present, must not specify other namespaces"))
		}
	}
	for i, r := range rule.NonResourceRules {
		rp := fmt.Sprintf("%s.nonResourceRules[%d]", p, i)
		errs = append(errs, validateWildcardList(r.Verbs, rp+".verbs", "verbs", "verbs")...)
		errs = append(errs, validateWildcardList(r.NonResourceURLs, rp+".nonResourceURLs", "nonResourceURLs", "non-resource URLs")...)
		for j, u := range r.NonResourceURLs {
			if u != flowcontrolv1.NonResourceAll && !strings.HasPrefix(u, "/") {
				errs = append(errs, apierrors.Invalid(fmt.Sprintf("%s.nonResourceURLs[%d]", rp, j), u, "must start with slash"))
			}
		}
	}
	return errs
}

// validateWildcardList checks a list of a rule: not empty, and "*" alone.
func validateWildcardList(list []string, p, what, others string) apierrors.FieldErrors {
	if len(list) == 0 {
		return apierrors.FieldErrors{apierrors.Required(p, what+" must contain at least one value")}
	}
	if slices.Contains(list, "*") && len(list) > 1 {
		return apierrors.FieldErrors{apierrors.Invalid(p, list, "if '*' is present, must not specify other "+others)}
	}
	return nil
}

func validateFlowSubject(s flowcontrolv1.Subject, p string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	switch s.Kind {
	case flowcontrolv1.SubjectKindServiceAccount:
		if s.ServiceAccount == nil {
			return append(errs, apierrors.Required(p+".serviceAccount", "serviceAccount is required when subject kind is 'ServiceAccount'"))
		}
		if s.ServiceAccount.Name == "" {
			errs = append(errs, apierrors.Required(p+".serviceAccount.name", "must not be empty"))
		}
		if s.ServiceAccount.Namespace == "" {
			errs = append(errs, apierrors.Required(p+".serviceAccount.namespace", "must not be empty"))
		}
	case flowcontrolv1.SubjectKindGroup:
		if s.Group == nil {
			return append(errs, apierrors.Required(p+".group", "group is required when subject kind is 'Group'"))
		}
		if s.Group.Name == "" {
			errs = append(errs, apierrors.Required(p+".group.name", "must not be empty"))
		}
	case flowcontrolv1.SubjectKindUser:
		if s.User == nil {
			return append(errs, apierrors.Required(p+".user", "user is required when subject kind is 'User'"))
		}
		if s.User.Name == "" {
			errs = append(errs, apierrors.Required(p+".user.name", "must not be empty"))
		}
	default:
		errs = append(errs, apierrors.NotSupported(p+".kind", s.Kind, []string{
			string(flowcontrolv1.SubjectKindGroup), string(flowcontrolv1.SubjectKindServiceAccount), string(flowcontrolv1.SubjectKindUser)}))
	}
	return errs
}

// ValidatePriorityLevelConfiguration checks a priority level: its name,
// that exempt and only exempt is of type Exempt, and its limits.
//
// Upstream: k8s.io/kubernetes/pkg/apis/flowcontrol/validation (ValidatePriorityLevelConfiguration).
func ValidatePriorityLevelConfiguration(pl *flowcontrolv1.PriorityLevelConfiguration) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&pl.ObjectMeta, false, NameIsDNSSubdomain, "metadata")
	spec := pl.Spec
	if (pl.Name == flowcontrolv1.PriorityLevelConfigurationNameExempt) != (spec.Type == flowcontrolv1.PriorityLevelEnablementExempt) {
		errs = append(errs, apierrors.Invalid("spec.type", spec.Type, "type must be 'Exempt' if and only if name is 'exempt'"))
	}
	switch spec.Type {
	case flowcontrolv1.PriorityLevelEnablementExempt:
		if spec.Limited != nil {
			errs = append(errs, apierrors.Forbidden("spec.limited", "must be nil if the type is not Limited"))
		}
		if e := spec.Exempt; e != nil {
			if e.NominalConcurrencyShares != nil && *e.NominalConcurrencyShares < 0 {
				errs = append(errs, apierrors.Invalid("spec.exempt.nominalConcurrencyShares", *e.NominalConcurrencyShares, "must be a non-negative integer"))
			}
			errs = append(errs, validatePercent(e.LendablePercent, "spec.exempt.lendablePercent")...)
		}
	case flowcontrolv1.PriorityLevelEnablementLimited:
		if spec.Exempt != nil {
			errs = append(errs, apierrors.Forbidden("spec.exempt", "must be nil if the type is Limited"))
		}
		if spec.Limited == nil {
			errs = append(errs, apierrors.Required("spec.limited", "must not be empty when type is Limited"))
		} else {
			errs = append(errs, validateLimited(spec.Limited)...)
		}
	default:
		errs = append(errs, apierrors.NotSupported("spec.type", spec.Type, []string{
			string(flowcontrolv1.PriorityLevelEnablementExempt), string(flowcontrolv1.PriorityLevelEnablementLimited)}))
	}
	return errs
}

// ValidatePriorityLevelConfigurationUpdate checks an update of a priority
// level: its metadata as any update's, and the new object as a create's.
func ValidatePriorityLevelConfigurationUpdate(pl, old *flowcontrolv1.PriorityLevelConfiguration) apierrors.FieldErrors {
	return append(ValidateObjectMetaUpdate(&pl.ObjectMeta, &old.ObjectMeta, "metadata"), ValidatePriorityLevelConfiguration(pl)...)
}

func validateLimited(l *flowcontrolv1.LimitedPriorityLevelConfiguration) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if l.NominalConcurrencyShares != nil && *l.NominalConcurrencyShares < 0 {
		errs = append(errs, apierrors.Invalid("spec.limited.nominalConcurrencyShares", *l.NominalConcurrencyShares, "must be a non-negative integer"))
	}
	errs = append(errs, validatePercent(l.LendablePercent, "spec.limited.lendablePercent")...)
	if b := l.BorrowingLimitPercent; b != nil && *b < 0 {
		errs = append(errs, apierrors.Invalid("spec.limited.borrowingLimitPercent", *b, "if specified, must be a non-negative integer"))
	}
	switch r := l.LimitResponse; r.Type {
	case flowcontrolv1.LimitResponseTypeReject:
		if r.Queuing != nil {
			errs = append(errs, apierrors.Forbidden("spec.limited.limitResponse.queuing", "must be nil if limited.limitResponse.type is not Limited"))
		}
	case flowcontrolv1.LimitResponseTypeQueue:
		if r.Queuing == nil {
			errs = append(errs, apierrors.Required("spec.limited.limitResponse.queuing", "must not be empty if limited.limitResponse.type is Queue"))
		} else {
			errs = append(errs, validateQueuing(r.Queuing, "spec.limited.limitResponse.queuing")...)
		}
	default:
		errs = append(errs, apierrors.NotSupported("spec.limited.limitResponse.type", r.Type, []string{
			string(flowcontrolv1.LimitResponseTypeQueue), string(flowcontrolv1.LimitResponseTypeReject)}))
	}
	return errs
}

func validatePercent(v *int32, p string) apierrors.FieldErrors {
	if v != nil && (*v < 0 || *v > 100) {
		return apierrors.FieldErrors{apierrors.Invalid(p, *v, "must be between 0 and 100, inclusive")}
	}
	return nil
}

func validateQueuing(q *flowcontrolv1.QueuingConfiguration, p string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if q.QueueLengthLimit <= 0 {
		errs = append(errs, apierrors.Invalid(p+".queueLengthLimit", q.QueueLengthLimit, "must be positive"))
	}
	if q.Queues <= 0 {
		errs = append(errs, apierrors.Invalid(p+".queues", q.Queues, "must be positive"))
	}
	if q.HandSize <= 0 {
		errs = append(errs, apierrors.Invalid(p+".handSize", q.HandSize, "must be positive"))
	} else if q.Queues > 0 && q.HandSize > q.Queues {
		errs = append(errs, apierrors.Invalid(p+".handSize", q.HandSize, fmt.Sprintf("should not be greater than queues (%d)", q.Queues)))
	} else if q.Queues > 0 && requiredEntropyBits(q.Queues, q.HandSize) > flowcontrolMaxHashBits {
		errs = append(errs, apierrors.Invalid(p+".handSize", q.HandSize,
			fmt.Sprintf("required entropy bits of deckSize %d and handSize %d should not be greater than %d", q.Queues, q.HandSize, flowcontrolMaxHashBits)))
	}
	return errs
}

// requiredEntropyBits is how many bits of hash dealing a hand of handSize
// from deckSize cards takes, as upstream bounds it: handSize digits of
// log2(deckSize) bits each.
//
// Upstream: k8s.io/apiserver/pkg/util/shufflesharding (RequiredEntropyBits).
func requiredEntropyBits(deckSize, handSize int32) int {
	return int(math.Ceil(float64(handSize) * math.Log2(float64(deckSize))))
}
