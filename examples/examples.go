// Package examples holds the sample files the README uses: orders.csv for
// `sheetstream convert`, and exports.yaml, the demo shop's export service,
// which `sheetstream serve --demo` serves. It is embedded from here so
// that the file a reader copies and the service the command runs are the
// same. The demo shop itself (CreateDemo) and its designed report
// template (WriteReportTemplate) are made here for the commands and the
// runnable examples alike.
package examples

import _ "embed"

// Exports is exports.yaml: the demo shop's exports, without a database.
//
//go:embed exports.yaml
var Exports []byte
