package xlsx

// Calculated columns whose formula is arithmetic of the row's own cells
// carry their value: a viewer that does not recalculate shows it, and
// the totals row sums it. Evaluated: numbers, [@Column] and [@[Column]]
// references to the same row, + - * / ^ (left to right, as Excel does), a
// percent sign, unary minus and plus (binding tighter than ^, as in
// Excel: -2^2 is 4), parentheses. Any other formula (a function, another
// reference, text) is Excel's to compute and carries no value.

import (
	"math"
	"strconv"
	"strings"
)

// calcOp is a step of a compiled formula, in postfix order.
type calcOp struct {
	op  byte    // 'n' a number, 'r' a reference, '~' negation, '%', or an operator
	num float64 // the number
	col int     // the reference's column, from 0 in the table
}

// compileCalc compiles an arithmetic formula over the table's columns,
// named in names; false for a formula it does not evaluate.
func compileCalc(formula string, names []string) ([]calcOp, bool) {
	s := strings.TrimPrefix(strings.TrimSpace(formula), "=")
	var out []calcOp
	var stack []byte // operators and '('
	prec := func(op byte) int {
		switch op {
		case '+', '-':
			return 1
		case '*', '/':
			return 2
		case '^':
			return 3
		case '~':
			return 4
		}
		return 0
	}
	operand := true // an operand (or a unary sign) comes next
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case operand && (c == '-' || c == '+'):
			if c == '-' {
				stack = append(stack, '~')
			}
			i++
		case operand && (c >= '0' && c <= '9' || c == '.'):
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || (s[j] == 'E' || s[j] == 'e') ||
				(s[j] == '+' || s[j] == '-') && j > i && (s[j-1] == 'E' || s[j-1] == 'e')) {
				j++
			}
			v, err := strconv.ParseFloat(s[i:j], 64)
			if err != nil {
				return nil, false
			}
			out, operand, i = append(out, calcOp{op: 'n', num: v}), false, j
		case operand && strings.HasPrefix(s[i:], "[@"):
			name, n := calcRef(s[i:])
			col := -1
			for k, h := range names {
				if strings.EqualFold(h, name) {
					col = k
				}
			}
			if n == 0 || col < 0 {
				return nil, false
			}
			out, operand, i = append(out, calcOp{op: 'r', col: col}), false, i+n
		case operand && c == '(':
			stack, i = append(stack, '('), i+1
		case !operand && c == ')':
			for len(stack) > 0 && stack[len(stack)-1] != '(' {
				out, stack = append(out, calcOp{op: stack[len(stack)-1]}), stack[:len(stack)-1]
			}
			if len(stack) == 0 {
				return nil, false
			}
			stack, i = stack[:len(stack)-1], i+1
		case !operand && c == '%':
			out, i = append(out, calcOp{op: '%'}), i+1
		case !operand && strings.IndexByte("+-*/^", c) >= 0:
			// Every operator is left-associative in Excel, ^ too.
			for len(stack) > 0 && stack[len(stack)-1] != '(' && prec(stack[len(stack)-1]) >= prec(c) {
				out, stack = append(out, calcOp{op: stack[len(stack)-1]}), stack[:len(stack)-1]
			}
			stack, operand, i = append(stack, c), true, i+1
		default:
			return nil, false
		}
	}
	if operand {
		return nil, false
	}
	for len(stack) > 0 {
		op := stack[len(stack)-1]
		if op == '(' {
			return nil, false
		}
		out, stack = append(out, calcOp{op: op}), stack[:len(stack)-1]
	}
	return out, len(out) > 0
}

// calcRef reads a this-row reference, [@Name] or [@[Name]], returning the
// name and its length in s; 0 for a name with escapes or other parts.
func calcRef(s string) (string, int) {
	if strings.HasPrefix(s, "[@[") {
		end := strings.Index(s, "]]")
		if end < 0 || strings.ContainsAny(s[3:end], "'[]#") {
			return "", 0
		}
		return s[3:end], end + 2
	}
	end := strings.IndexByte(s, ']')
	if end < 0 || strings.ContainsAny(s[2:end], "'[#,:") {
		return "", 0
	}
	return s[2:end], end + 1
}

// calcValue is a number, or an error value's code.
type calcValue struct {
	num float64
	err ErrorCode
}

// evalCalc computes a compiled formula over a row's cells (cells[k] is
// the table's column k): the cached value, or false when a cell's value
// is unknown (a formula without one).
func (w *Writer) evalCalc(ops []calcOp, cells []Cell) (Cell, bool) {
	var stack [16]calcValue
	sp := 0
	for _, op := range ops {
		switch op.op {
		case 'n':
			if sp == len(stack) {
				return Cell{}, false
			}
			stack[sp], sp = calcValue{num: op.num}, sp+1
			continue
		case 'r':
			if sp == len(stack) {
				return Cell{}, false
			}
			var c *Cell
			if op.col < len(cells) {
				c = &cells[op.col]
			}
			v, ok := w.calcOperand(c)
			if !ok {
				return Cell{}, false
			}
			stack[sp], sp = v, sp+1
			continue
		case '~':
			stack[sp-1].num = -stack[sp-1].num
			continue
		case '%':
			stack[sp-1].num /= 100
			continue
		}
		a, b := stack[sp-2], stack[sp-1]
		sp--
		r := calcValue{err: a.err}
		if r.err == "" {
			r.err = b.err
		}
		if r.err == "" {
			switch op.op {
			case '+':
				r.num = a.num + b.num
			case '-':
				r.num = a.num - b.num
			case '*':
				r.num = a.num * b.num
			case '/':
				if b.num == 0 {
					r.err = ErrorDiv0
				}
				r.num = a.num / b.num
			case '^':
				if a.num == 0 && b.num < 0 {
					r.err = ErrorDiv0
				}
				r.num = math.Pow(a.num, b.num)
			}
			if r.err == "" && (math.IsNaN(r.num) || math.IsInf(r.num, 0)) {
				r.err = ErrorNum
			}
		}
		stack[sp-1] = r
	}
	if sp != 1 {
		return Cell{}, false
	}
	if stack[0].err != "" {
		return Error(stack[0].err), true
	}
	return Float(stack[0].num), true
}

// calcOperand is a cell as arithmetic reads it: an empty cell 0, TRUE 1,
// a date its serial, text that reads as a number that number (as Excel
// coerces it), other text #VALUE!, an error itself; false for a formula
// whose value is unknown.
func (w *Writer) calcOperand(c *Cell) (calcValue, bool) {
	if c == nil {
		return calcValue{}, true
	}
	k, text := c.kind, c.s
	if k == kindFormula {
		if c.cached == kindEmpty {
			return calcValue{}, false
		}
		k, text = c.cached, c.cachedText()
	}
	switch k {
	case kindEmpty, kindBlank:
		return calcValue{}, true
	case kindError:
		return calcValue{err: ErrorCode(text)}, true
	case kindString:
		if v, err := strconv.ParseFloat(strings.TrimSpace(text), 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
			return calcValue{num: v}, true
		}
		return calcValue{err: ErrorValue}, true
	}
	kind, num, _ := w.pivotValue(c)
	switch kind {
	case 'n', 'd', 'b':
		return calcValue{num: num}, true
	case 'm':
		return calcValue{}, true
	}
	return calcValue{err: ErrorValue}, true
}
