package apiserver

import (
	"regexp"
	"strconv"
)

// kubeVersion matches the Kubernetes API version form: v<major>, then
// alpha or beta with a number.
var kubeVersion = regexp.MustCompile(`^v(\d+)(?:(alpha|beta)(\d+))?$`)

// compareKubeAwareVersions orders API versions as discovery lists them,
// the preferred first: GA before beta before alpha, higher numbers first
// within each, then versions of other forms alphabetically. It returns a
// negative number when a comes first.
//
// Upstream: k8s.io/apimachinery/pkg/version (CompareKubeAwareVersionStrings).
func compareKubeAwareVersions(a, b string) int {
	ka, kb := parseKubeVersion(a), parseKubeVersion(b)
	switch {
	case ka.ok && !kb.ok:
		return -1
	case !ka.ok && kb.ok:
		return 1
	case !ka.ok && !kb.ok:
		if a < b {
			return -1
		}
		if a > b {
			return 1
		}
		return 0
	}
	if ka.stability != kb.stability {
		return kb.stability - ka.stability
	}
	if ka.major != kb.major {
		return kb.major - ka.major
	}
	return kb.minor - ka.minor
}

type kubeVersionParts struct {
	ok bool
	// stability is 2 for GA, 1 for beta, 0 for alpha.
	stability, major, minor int
}

func parseKubeVersion(v string) kubeVersionParts {
	m := kubeVersion.FindStringSubmatch(v)
	if m == nil {
		return kubeVersionParts{}
	}
	major, err := strconv.Atoi(m[1])
	if err != nil {
		return kubeVersionParts{}
	}
	p := kubeVersionParts{ok: true, stability: 2, major: major}
	if m[2] != "" {
		p.stability = map[string]int{"alpha": 0, "beta": 1}[m[2]]
		if p.minor, err = strconv.Atoi(m[3]); err != nil {
			return kubeVersionParts{}
		}
	}
	return p
}
