package strategicpatch

// patchCase is a patch applied to an original object (richPod, or the
// kubelet's node, when original is empty).
type patchCase struct {
	name, original, patch string
	// wantErr says upstream rejects the patch.
	wantErr bool
}

// richPod is a live pod with something in every list that merges.
const richPod = `{
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {
    "name": "web", "namespace": "default", "uid": "u1", "resourceVersion": "7",
    "labels": {"app": "web", "tier": "fe"},
    "annotations": {"note": "x", "kubectl.kubernetes.io/last-applied-configuration": "{}"},
    "finalizers": ["a.example.com/f", "b.example.com/f"],
    "ownerReferences": [
      {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1", "uid": "rs1", "controller": true},
      {"apiVersion": "v1", "kind": "ConfigMap", "name": "cm", "uid": "cm1"}
    ]
  },
  "spec": {
    "volumes": [
      {"name": "cache", "emptyDir": {}},
      {"name": "cfg", "configMap": {"name": "cfg", "defaultMode": 420}}
    ],
    "initContainers": [{"name": "init", "image": "busybox:1", "command": ["sh", "-c", "true"]}],
    "containers": [
      {
        "name": "web", "image": "nginx:1.27",
        "args": ["-g", "daemon off;"],
        "ports": [{"name": "http", "containerPort": 80, "protocol": "TCP"}, {"name": "https", "containerPort": 443, "protocol": "TCP"}],
        "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}, {"name": "C", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}],
        "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"memory": "128Mi"}},
        "volumeMounts": [{"name": "cache", "mountPath": "/cache"}, {"name": "cfg", "mountPath": "/etc/cfg", "readOnly": true}],
        "imagePullPolicy": "IfNotPresent"
      },
      {"name": "log", "image": "busybox:1", "env": [{"name": "LEVEL", "value": "info"}]}
    ],
    "restartPolicy": "Always",
    "nodeSelector": {"kubernetes.io/os": "linux", "disk": "ssd"},
    "securityContext": {"runAsUser": 1000, "supplementalGroups": [1, 2]},
    "imagePullSecrets": [{"name": "reg1"}],
    "hostAliases": [{"ip": "10.0.0.1", "hostnames": ["a"]}],
    "tolerations": [
      {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
      {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}
    ],
    "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]
  },
  "status": {
    "phase": "Running",
    "conditions": [
      {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2024-06-10T06:13:20Z"},
      {"type": "Ready", "status": "True", "lastTransitionTime": "2024-06-10T06:13:25Z"}
    ],
    "hostIPs": [{"ip": "10.0.0.11"}],
    "podIPs": [{"ip": "10.244.1.7"}, {"ip": "fd00::7"}],
    "containerStatuses": [{"name": "web", "ready": true, "restartCount": 0, "image": "nginx:1.27", "imageID": "", "volumeMounts": [{"name": "cache", "mountPath": "/cache"}]}]
  }
}`

var podCases = []patchCase{
	// What kubectl sends.
	{name: "set image by name", patch: `{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}`},
	{name: "rollout restart annotation", patch: `{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2025-01-01T00:00:00Z"}}}`},
	{name: "label", patch: `{"metadata":{"labels":{"tier":"be","new":"1"}}}`},
	{name: "remove label", patch: `{"metadata":{"labels":{"tier":null}}}`},
	{name: "apply change image keeps order", patch: `{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"log"}],"containers":[{"image":"nginx:1.29","name":"web"}]}}`},
	{name: "apply adds env var", patch: `{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"log"}],"containers":[{"$setElementOrder/env":[{"name":"A"},{"name":"D"},{"name":"B"},{"name":"C"}],"env":[{"name":"D","value":"4"}],"name":"web"}]}}`},
	{name: "apply removes env var", patch: `{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"log"}],"containers":[{"$setElementOrder/env":[{"name":"A"},{"name":"C"}],"env":[{"$patch":"delete","name":"B"}],"name":"web"}]}}`},
	{name: "apply removes container", patch: `{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"$patch":"delete","name":"log"}]}}`},
	{name: "apply reorders containers", patch: `{"spec":{"$setElementOrder/containers":[{"name":"log"},{"name":"web"}]}}`},
	{name: "apply removes finalizer", patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":["b.example.com/f"],"$setElementOrder/finalizers":["a.example.com/f"]}}`},
	{name: "apply adds finalizer", patch: `{"metadata":{"$setElementOrder/finalizers":["c.example.com/f","a.example.com/f","b.example.com/f"],"finalizers":["c.example.com/f"]}}`},
	{name: "apply switches volume source", patch: `{"spec":{"$setElementOrder/volumes":[{"name":"cache"},{"name":"cfg"}],"volumes":[{"$retainKeys":["hostPath","name"],"hostPath":{"path":"/data"},"name":"cache"}]}}`},

	// Merge lists.
	{name: "add container is prepended", patch: `{"spec":{"containers":[{"name":"sidecar","image":"envoy"}]}}`},
	{name: "delete container", patch: `{"spec":{"containers":[{"name":"log","$patch":"delete"}]}}`},
	{name: "delete missing container", patch: `{"spec":{"containers":[{"name":"nope","$patch":"delete"}]}}`},
	{name: "replace containers", patch: `{"spec":{"containers":[{"name":"only","image":"x"},{"$patch":"replace"}]}}`},
	{name: "env value change and add", patch: `{"spec":{"containers":[{"name":"web","env":[{"name":"B","value":"22"},{"name":"E","value":"5"}]}]}}`},
	{name: "env delete", patch: `{"spec":{"containers":[{"name":"web","env":[{"name":"A","$patch":"delete"}]}]}}`},
	{name: "env valueFrom to value", patch: `{"spec":{"containers":[{"name":"web","env":[{"name":"C","value":"lit","valueFrom":null}]}]}}`},
	{name: "ports merge by number", patch: `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80,"name":"web"},{"containerPort":9090}]}]}}`},
	{name: "ports key as float", patch: `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80.0,"name":"web"}]}]}}`},
	{name: "volume mounts by path", patch: `{"spec":{"containers":[{"name":"web","volumeMounts":[{"mountPath":"/cache","readOnly":true},{"mountPath":"/etc/cfg","$patch":"delete"}]}]}}`},
	{name: "owner references by uid", patch: `{"metadata":{"ownerReferences":[{"uid":"rs1","blockOwnerDeletion":true},{"uid":"x","apiVersion":"v1","kind":"Secret","name":"s"}]}}`},
	{name: "conditions by type", patch: `{"status":{"conditions":[{"type":"Ready","status":"False","reason":"Probe"},{"type":"ContainersReady","status":"False"}]}}`},
	{name: "pod ips by ip", patch: `{"status":{"podIPs":[{"ip":"10.244.1.8"}]}}`},
	{name: "container status mounts", patch: `{"status":{"containerStatuses":[{"name":"web","volumeMounts":[{"mountPath":"/x","name":"x"}]}]}}`},
	{name: "duplicate keys in patch", patch: `{"spec":{"containers":[{"name":"web","image":"a"},{"name":"web","args":null}]}}`},
	{name: "new container with nulls and directives", patch: `{"spec":{"containers":[{"name":"new","image":"i","env":null,"securityContext":{"$patch":"replace","privileged":true}}]}}`},

	// Primitive lists.
	{name: "finalizers union", patch: `{"metadata":{"finalizers":["c.example.com/f","a.example.com/f"]}}`},
	{name: "finalizers delete list", patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":["a.example.com/f","nope"]}}`},
	{name: "finalizers delete list null", patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":null}}`},
	{name: "finalizers delete list of missing", patch: `{"metadata":{"$deleteFromPrimitiveList/missing":["a"]}}`},
	{name: "finalizers set to null", patch: `{"metadata":{"finalizers":null}}`},
	{name: "finalizers duplicates", patch: `{"metadata":{"finalizers":["b.example.com/f","b.example.com/f","z"]}}`},
	{name: "supplemental groups replace", patch: `{"spec":{"securityContext":{"supplementalGroups":[3]}}}`},
	{name: "args replace", patch: `{"spec":{"containers":[{"name":"web","args":["-v"]}]}}`},

	// Lists that are replaced.
	{name: "tolerations replace", patch: `{"spec":{"tolerations":[{"key":"x","operator":"Exists"}]}}`},
	{name: "tolerations with delete directive", patch: `{"spec":{"tolerations":[{"key":"dedicated","$patch":"delete"}]}}`},
	{name: "empty tolerations", patch: `{"spec":{"tolerations":[]}}`},

	// Maps and directives.
	{name: "null deletes nested", patch: `{"spec":{"nodeSelector":{"disk":null},"securityContext":null}}`},
	{name: "null of missing key", patch: `{"spec":{"affinity":null,"nodeSelector":{"nope":null}}}`},
	{name: "map replace directive", patch: `{"spec":{"securityContext":{"$patch":"replace","runAsGroup":5}}}`},
	{name: "map delete directive", patch: `{"metadata":{"annotations":{"$patch":"delete"}}}`},
	{name: "top-level replace", patch: `{"$patch":"replace","apiVersion":"v1","kind":"Pod","metadata":{"name":"web"}}`},
	{name: "top-level delete", patch: `{"$patch":"delete"}`},
	{name: "new subtree drops directives and nulls", patch: `{"spec":{"affinity":{"nodeAffinity":null,"podAffinity":{"$patch":"delete"},"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"podAffinityTerm":{"topologyKey":"z","labelSelector":{"$patch":"replace"}}}]}}}}`},
	{name: "retainKeys on map", patch: `{"spec":{"securityContext":{"$retainKeys":["runAsUser"],"runAsUser":2}}}`},
	{name: "retainKeys with null", patch: `{"spec":{"securityContext":{"$retainKeys":["fsGroup"],"runAsUser":null}}}`},
	{name: "type change", patch: `{"spec":{"nodeSelector":"oops"}}`},
	{name: "type change to map", patch: `{"spec":{"restartPolicy":{"a":null,"b":1}}}`},
	{name: "unknown field map merges", patch: `{"spec":{"colour":{"a":[1,2],"b":null}}}`},
	{name: "null patch", patch: `null`},
	{name: "empty patch", patch: `{}`},
	{name: "set element order for new list", original: `{"spec":{}}`, patch: `{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a"},{"name":"c","$patch":"delete"}]}}`},
	{name: "set element order for absent list", patch: `{"spec":{"$setElementOrder/initContainers":[{"name":"b"}],"$setElementOrder/hostAliases":[]}}`},
	{name: "set element order primitives", patch: `{"metadata":{"$setElementOrder/finalizers":["b.example.com/f","x","a.example.com/f"],"finalizers":["x"]}}`},
	{name: "set element order partial", patch: `{"spec":{"$setElementOrder/containers":[{"name":"log"}],"containers":[{"name":"log","image":"b2"}]}}`},
	{name: "set element order replace list", patch: `{"spec":{"$setElementOrder/containers":[{"name":"z"}],"containers":[{"$patch":"replace"},{"name":"z","image":"z"}]}}`},
	{name: "merge into empty original", original: `{}`, patch: `{"metadata":{"name":"n","finalizers":["a"]},"spec":{"containers":[{"name":"c","$patch":"delete"},{"name":"d"}]}}`},
	{name: "null original", original: `null`, patch: `{"metadata":{"name":"n"}}`},
	{name: "numbers", patch: `{"spec":{"terminationGracePeriodSeconds":1e2,"priority":-0,"activeDeadlineSeconds":12345678901234567890,"x":1.5}}`},

	// Malformed patches.
	{name: "missing merge key", patch: `{"spec":{"containers":[{"image":"x"}]}}`, wantErr: true},
	{name: "delete without merge key", patch: `{"spec":{"containers":[{"$patch":"delete"}]}}`, wantErr: true},
	{name: "merge directive in map", patch: `{"spec":{"$patch":"merge"}}`, wantErr: true},
	{name: "merge directive in list", patch: `{"spec":{"containers":[{"$patch":"merge"}]}}`, wantErr: true},
	{name: "unknown directive", patch: `{"metadata":{"labels":{"$patch":"explode"}}}`, wantErr: true},
	{name: "unknown list directive", patch: `{"spec":{"containers":[{"name":"web","$patch":"explode"}]}}`, wantErr: true},
	{name: "set element order not a list", patch: `{"spec":{"$setElementOrder/containers":"web"}}`, wantErr: true},
	{name: "set element order without field", patch: `{"spec":{"$setElementOrder":[]}}`, wantErr: true},
	{name: "set element order mismatch", patch: `{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"name":"log","image":"x"}]}}`, wantErr: true},
	{name: "set element order of null list", patch: `{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":null}}`, wantErr: true},
	{name: "set element order item without key", patch: `{"spec":{"$setElementOrder/containers":[{"image":"x"}],"containers":[{"name":"web"}]}}`, wantErr: true},
	{name: "delete list without field", patch: `{"metadata":{"$deleteFromPrimitiveList":["a"]}}`, wantErr: true},
	{name: "retainKeys not a list", patch: `{"spec":{"securityContext":{"$retainKeys":"runAsUser"}}}`, wantErr: true},
	{name: "retainKeys misses a patched key", patch: `{"spec":{"securityContext":{"$retainKeys":["runAsUser"],"fsGroup":1}}}`, wantErr: true},
	{name: "list of lists", patch: `{"metadata":{"finalizers":[["a"]]}}`, wantErr: true},
	{name: "mixed item types", patch: `{"metadata":{"finalizers":[1]}}`, wantErr: true},
	{name: "null item in merge list", patch: `{"metadata":{"finalizers":["x",null]}}`, wantErr: true},
	{name: "scalar item in map merge list", patch: `{"spec":{"containers":["web"]}}`, wantErr: true},
	{name: "invalid json", patch: `{"spec":`, wantErr: true},
	{name: "top-level array", patch: `[{"op":"add"}]`, wantErr: true},
	{name: "trailing data", patch: `{} {}`, wantErr: true},
}

var nodeCases = []patchCase{
	{name: "kubelet heartbeat", patch: `{"status":{"$setElementOrder/conditions":[{"type":"Ready"}],"conditions":[{"lastHeartbeatTime":"2024-09-12T10:20:00Z","type":"Ready"}]}}`},
	{name: "add condition", patch: `{"status":{"conditions":[{"type":"DiskPressure","status":"False"}]}}`},
	{name: "addresses by type", patch: `{"status":{"addresses":[{"type":"ExternalIP","address":"1.2.3.4"},{"type":"Hostname","address":"renamed"}]}}`},
	{name: "pod cidrs union", patch: `{"spec":{"podCIDRs":["fd00::/64"]}}`},
	{name: "pod cidrs delete list", patch: `{"spec":{"$deleteFromPrimitiveList/podCIDRs":["10.244.1.0/24"]}}`},
	{name: "taints replace", patch: `{"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]}}`},
	{name: "cordon", patch: `{"spec":{"unschedulable":true}}`},
	{name: "capacity map", patch: `{"status":{"capacity":{"pods":"200","cpu":null}}}`},
	{name: "images replace", patch: `{"status":{"images":[{"names":["a"]}]}}`},
	{name: "label node", patch: `{"metadata":{"labels":{"node-role.kubernetes.io/worker":""}}}`},
}
