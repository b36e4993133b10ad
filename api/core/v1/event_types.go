package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Event reports something that happened to an object: "Scheduled",
// "Pulled", "Started", "BackOff". Components create them; kubectl describe
// shows them.
type Event struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	// InvolvedObject is the object the event is about.
	InvolvedObject ObjectReference `json:"involvedObject"`
	// Reason is a short CamelCase machine-readable cause.
	Reason  string      `json:"reason,omitempty"`
	Message string      `json:"message,omitempty"`
	Source  EventSource `json:"source,omitzero"`
	// FirstTimestamp and LastTimestamp bound the occurrences Count
	// counts.
	FirstTimestamp metav1.Time `json:"firstTimestamp,omitzero"`
	LastTimestamp  metav1.Time `json:"lastTimestamp,omitzero"`
	Count          int32       `json:"count,omitempty"`
	// Type is Normal or Warning.
	Type string `json:"type,omitempty"`
	// EventTime is set by new-style (events.k8s.io) recorders, which then
	// must set Action, ReportingController and ReportingInstance.
	EventTime metav1.MicroTime `json:"eventTime,omitzero"`
	Series    *EventSeries     `json:"series,omitempty"`
	Action    string           `json:"action,omitempty"`
	Related   *ObjectReference `json:"related,omitempty"`
	// ReportingController is "reportingComponent" on the wire, as upstream
	// spells it; it and ReportingInstance are always written.
	ReportingController string `json:"reportingComponent"`
	ReportingInstance   string `json:"reportingInstance"`
}

// The event types.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// EventSource names the component and host that reported an Event.
type EventSource struct {
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}

// EventSeries counts repeats of an Event.
type EventSeries struct {
	Count            int32            `json:"count,omitempty"`
	LastObservedTime metav1.MicroTime `json:"lastObservedTime,omitzero"`
}

// EventList is a list of Events.
type EventList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Event `json:"items"`
}
