package main

import (
	"crypto/rand"
	"fmt"
	"maps"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/controllers/controllerref"
)

// This file is the operator's knowledge: what a Database becomes. Each
// child is written as a mutate function that sets the fields the operator
// owns on an object, new or as stored, and leaves the rest (what the API
// server defaulted, the Service's cluster IP) alone. A reconcile that
// changes nothing then writes nothing: see createOrUpdate.

// engine is what the operator knows of a database server.
type engine struct {
	// image is the image's repository; the Database's version is its tag.
	image string
	port  int32
	// dataDir is where the server keeps its data: the storage volume.
	dataDir string
	// userEnv and passwordFileEnv are the variables the image reads its
	// credentials from, the password from a file of the mounted Secret.
	userEnv, passwordFileEnv string
}

// engines are the database servers the operator runs. minicp's simulated
// kubelet runs both images as servers that keep running.
var engines = map[string]engine{
	"postgres": {image: "postgres", port: 5432, dataDir: "/var/lib/postgresql/data",
		userEnv: "POSTGRES_USER", passwordFileEnv: "POSTGRES_PASSWORD_FILE"},
	"mysql": {image: "mysql", port: 3306, dataDir: "/var/lib/mysql",
		userEnv: "MYSQL_USER", passwordFileEnv: "MYSQL_PASSWORD_FILE"},
}

// secretName is the name of a Database's Secret of credentials; the
// Deployment and the Service take the Database's own name.
func secretName(db *Database) string { return db.Name + "-credentials" }

// credentialsDir is where the Secret is mounted in the database container.
const credentialsDir = "/etc/database"

// selectorLabels are the labels of a Database's pods: the Deployment and
// the Service select them. They never change, because a Deployment's
// selector may not.
func selectorLabels(db *Database) map[string]string {
	return map[string]string{"databases.example.com/name": db.Name}
}

// childLabels are the labels of every child: the selector's, and who
// manages it.
func childLabels(db *Database) map[string]string {
	l := selectorLabels(db)
	l["app.kubernetes.io/managed-by"] = operatorName
	return l
}

// setControllerReference makes db the controller of obj: the
// ownerReference the garbage collector follows when db is deleted, and
// the one the manager's Owns watch maps obj's changes back to db by.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/controller/controllerutil
// (SetControllerReference).
func setControllerReference(obj *metav1.ObjectMeta, db *Database) {
	ref := controllerref.NewControllerRef(&db.ObjectMeta, databaseGVK)
	for i, r := range obj.OwnerReferences {
		if r.UID == ref.UID {
			obj.OwnerReferences[i] = ref
			return
		}
	}
	obj.OwnerReferences = append(obj.OwnerReferences, ref)
}

// mergeLabels returns labels with want's keys set, keeping the others
// (someone else's labels are not the operator's to remove).
func mergeLabels(labels, want map[string]string) map[string]string {
	out := maps.Clone(labels)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, want)
	return out
}

// newSecret is a Secret of freshly generated credentials. The operator
// creates it once and never updates it: a password must not change under
// the clients that use it.
func newSecret(db *Database) *corev1.Secret {
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: secretName(db), Namespace: db.Namespace, Labels: childLabels(db)},
		Type:       corev1.SecretTypeBasicAuth,
		StringData: map[string]string{
			corev1.BasicAuthUsernameKey: db.Name,
			// rand.Text is 26 base32 characters: 130 bits of randomness.
			corev1.BasicAuthPasswordKey: rand.Text(),
		},
	}
	setControllerReference(&s.ObjectMeta, db)
	return s
}

// mutateDeployment sets what the operator owns of a Database's
// Deployment: its replicas and the database container, image
// <engine>:<version>, with its port, credentials and storage volume.
func mutateDeployment(d *appsv1.Deployment, db *Database) error {
	e, ok := engines[db.Spec.Engine]
	if !ok {
		return fmt.Errorf("unknown engine %q", db.Spec.Engine)
	}
	storage := &corev1.EmptyDirVolumeSource{}
	if db.Spec.Storage != "" {
		q, err := resource.ParseQuantity(db.Spec.Storage)
		if err != nil {
			return fmt.Errorf("spec.storage: %w", err)
		}
		storage.SizeLimit = &q
	}
	setControllerReference(&d.ObjectMeta, db)
	d.Labels = mergeLabels(d.Labels, childLabels(db))
	replicas := db.Spec.Replicas
	d.Spec.Replicas = &replicas
	if d.Spec.Selector == nil { // set at creation only: it is immutable
		d.Spec.Selector = &metav1.LabelSelector{MatchLabels: selectorLabels(db)}
	}
	d.Spec.Template.Labels = mergeLabels(d.Spec.Template.Labels, selectorLabels(db))

	pod := &d.Spec.Template.Spec
	// ownerOnly is 0400: the password is for the server's user alone.
	// Setting the mode also keeps the API server from defaulting it, so
	// the stored volume stays equal to the one written here.
	ownerOnly := int32(0o400)
	pod.Volumes = []corev1.Volume{
		// minicp has no PersistentVolumes: storage sizes an emptyDir.
		{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: storage}},
		{Name: "credentials", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
			SecretName: secretName(db), DefaultMode: &ownerOnly,
		}}},
	}
	c := containerNamed(pod, "database")
	c.Image = e.image + ":" + db.Spec.Version
	c.Ports = []corev1.ContainerPort{{Name: "db", ContainerPort: e.port, Protocol: corev1.ProtocolTCP}}
	c.Env = []corev1.EnvVar{
		{Name: e.userEnv, Value: db.Name},
		{Name: e.passwordFileEnv, Value: credentialsDir + "/" + corev1.BasicAuthPasswordKey},
	}
	c.VolumeMounts = []corev1.VolumeMount{
		{Name: "data", MountPath: e.dataDir},
		{Name: "credentials", MountPath: credentialsDir, ReadOnly: true},
	}
	return nil
}

// containerNamed returns pod's container called name, adding it if there
// is none, so that the defaults the API server gave it stay.
func containerNamed(pod *corev1.PodSpec, name string) *corev1.Container {
	for i := range pod.Containers {
		if pod.Containers[i].Name == name {
			return &pod.Containers[i]
		}
	}
	pod.Containers = append(pod.Containers, corev1.Container{Name: name})
	return &pod.Containers[len(pod.Containers)-1]
}

// mutateService sets what the operator owns of a Database's Service: it
// selects the Database's pods and exposes the engine's port. The cluster
// IP is the API server's to allocate.
func mutateService(s *corev1.Service, db *Database) error {
	e, ok := engines[db.Spec.Engine]
	if !ok {
		return fmt.Errorf("unknown engine %q", db.Spec.Engine)
	}
	setControllerReference(&s.ObjectMeta, db)
	s.Labels = mergeLabels(s.Labels, childLabels(db))
	s.Spec.Selector = selectorLabels(db)
	s.Spec.Ports = []corev1.ServicePort{{
		Name: "db", Protocol: corev1.ProtocolTCP, Port: e.port, TargetPort: intstr.FromString("db"),
	}}
	return nil
}

// endpoint is where clients of db connect: the Service's DNS name and
// port.
func endpoint(s *corev1.Service) string {
	if len(s.Spec.Ports) == 0 {
		return ""
	}
	return fmt.Sprintf("%s.%s.svc:%d", s.Name, s.Namespace, s.Spec.Ports[0].Port)
}
