package xlsx

// SheetProtection protects a sheet, in SheetOptions.Protect: its locked
// cells (all cells, unless their Style says CellProtection.Unlocked)
// cannot be changed, and the actions not allowed here are refused. A
// password, if any, is needed to lift the protection; Excel keeps only a
// salted SHA-512 hash of it. Protection keeps honest users from mistakes:
// it hides nothing (encrypt the file for that: Options.Password).
type SheetProtection struct {
	Password string
	// What users may still do.
	FormatCells, FormatColumns, FormatRows      bool
	InsertColumns, InsertRows, InsertHyperlinks bool
	DeleteColumns, DeleteRows                   bool
	Sort, AutoFilter, PivotTables               bool
	EditObjects, EditScenarios                  bool
	NoSelectLockedCells, NoSelectUnlockedCells  bool // selecting is allowed unless refused here
	// EditableRanges may be edited while the sheet is protected, with
	// their own password if they have one.
	EditableRanges []EditableRange
}

// EditableRange is a range of a protected sheet that users may edit.
type EditableRange struct {
	Name     string // as Excel lists it; Range1, Range2... when empty
	Range    Range
	Password string
}

// spinCount is how many times a protection password's hash is hashed
// again, as Excel does.
const spinCount = 100000
