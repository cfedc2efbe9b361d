// to_xlsb.js IN.xlsx OUT.xlsb: converts a workbook to .xlsb with
// SheetJS, whose binary writer is the one available here (LibreOffice
// and the Python writers write no .xlsb). Dates stay numbers with their
// formats, as in the input.
const XLSX = require("xlsx");
const [input, output] = process.argv.slice(2);
const wb = XLSX.readFile(input, { cellDates: false });
XLSX.writeFile(wb, output, { bookType: "xlsb", compression: true });
