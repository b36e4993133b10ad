package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Event reports something that happened to an object: "Scheduled",
// "Pulled", "Started", "BackOff". Components create them; kubectl describe
// shows them.
type Event struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata" protobuf:"bytes,1,opt,name=metadata"`
	// InvolvedObject is the object the event is about.
	InvolvedObject ObjectReference `json:"involvedObject" protobuf:"bytes,2,opt,name=involvedObject"`
	// Reason is a short CamelCase machine-readable cause.
	Reason  string      `json:"reason,omitempty" protobuf:"bytes,3,opt,name=reason"`
	Message string      `json:"message,omitempty" protobuf:"bytes,4,opt,name=message"`
	Source  EventSource `json:"source,omitempty" protobuf:"bytes,5,opt,name=source"`
	// FirstTimestamp and LastTimestamp bound the occurrences Count
	// counts.
	FirstTimestamp metav1.Time `json:"firstTimestamp,omitempty" protobuf:"bytes,6,opt,name=firstTimestamp"`
	LastTimestamp  metav1.Time `json:"lastTimestamp,omitempty" protobuf:"bytes,7,opt,name=lastTimestamp"`
	Count          int32       `json:"count,omitempty" protobuf:"varint,8,opt,name=count"`
	// Type is Normal or Warning.
	Type string `json:"type,omitempty" protobuf:"bytes,9,opt,name=type"`
	// EventTime is set by new-style (events.k8s.io) recorders, which then
	// must set Action, ReportingController and ReportingInstance.
	EventTime metav1.MicroTime `json:"eventTime,omitempty" protobuf:"bytes,10,opt,name=eventTime"`
	Series    *EventSeries     `json:"series,omitempty" protobuf:"bytes,11,opt,name=series"`
	Action    string           `json:"action,omitempty" protobuf:"bytes,12,opt,name=action"`
	Related   *ObjectReference `json:"related,omitempty" protobuf:"bytes,13,opt,name=related"`
	// ReportingController is "reportingComponent" on the wire, as upstream
	// spells it; it and ReportingInstance are always written.
	ReportingController string `json:"reportingComponent" protobuf:"bytes,14,opt,name=reportingComponent"`
	ReportingInstance   string `json:"reportingInstance" protobuf:"bytes,15,opt,name=reportingInstance"`
}

// The event types.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// EventSource names the component and host that reported an Event.
type EventSource struct {
	Component string `json:"component,omitempty" protobuf:"bytes,1,opt,name=component"`
	Host      string `json:"host,omitempty" protobuf:"bytes,2,opt,name=host"`
}

// EventSeries counts repeats of an Event.
type EventSeries struct {
	Count            int32            `json:"count,omitempty" protobuf:"varint,1,name=count"`
	LastObservedTime metav1.MicroTime `json:"lastObservedTime,omitempty" protobuf:"bytes,2,name=lastObservedTime"`
}

// EventList is a list of Events.
type EventList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Event `json:"items" protobuf:"bytes,2,rep,name=items"`
}
