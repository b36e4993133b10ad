package apiserver

import (
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/apiserver/printers"
)

// customResourceTable renders a CRD version's objects with its
// additionalPrinterColumns (Name and Age when it declares none), as
// `kubectl get` shows them. A column whose path does not parse ends the
// columns there, as upstream serves it; validation rejects such CRDs.
func customResourceTable(v apiextensionsv1.CustomResourceDefinitionVersion) printers.Printer {
	specs := make([]printers.ColumnSpec, len(v.AdditionalPrinterColumns))
	for i, c := range v.AdditionalPrinterColumns {
		specs[i] = printers.ColumnSpec{Name: c.Name, Type: c.Type, Format: c.Format,
			Description: c.Description, Priority: c.Priority, JSONPath: c.JSONPath}
	}
	p, _ := printers.CustomColumns(specs)
	return p
}
