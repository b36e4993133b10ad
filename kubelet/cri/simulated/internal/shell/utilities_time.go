package shell

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// parseSleep parses one sleep argument: seconds, fractional, with an
// optional s, m, h or d suffix, or "infinity". forever reports infinity.
func parseSleep(arg string) (d time.Duration, forever bool, ok bool) {
	if arg == "infinity" || arg == "inf" {
		return 0, true, true
	}
	unit := time.Second
	switch {
	case strings.HasSuffix(arg, "s"):
		arg = arg[:len(arg)-1]
	case strings.HasSuffix(arg, "m"):
		arg, unit = arg[:len(arg)-1], time.Minute
	case strings.HasSuffix(arg, "h"):
		arg, unit = arg[:len(arg)-1], time.Hour
	case strings.HasSuffix(arg, "d"):
		arg, unit = arg[:len(arg)-1], 24*time.Hour
	}
	f, err := strconv.ParseFloat(arg, 64)
	if err != nil || f < 0 || math.IsNaN(f) || strings.ContainsAny(arg, "xXpP") {
		return 0, false, false
	}
	// Beyond about 290 years a Duration overflows: that is forever too.
	if f*float64(unit) >= math.MaxInt64 {
		return 0, true, true
	}
	return time.Duration(f * float64(unit)), false, true
}

func sleep(p *Process, argv []string) control {
	if len(argv) < 2 {
		p.errorf("sleep: missing operand\n")
		p.status = 1
		return next
	}
	var total time.Duration
	for _, a := range argv[1:] {
		d, forever, ok := parseSleep(a)
		if !ok {
			p.errorf("sleep: invalid number '%s'\n", a)
			p.status = 1
			return next
		}
		if forever {
			p.status = 0
			return p.sleepUntil(time.Time{})
		}
		total += d
	}
	p.status = 0
	return p.sleepUntil(p.now.Add(total))
}

func date(p *Process, argv []string) control {
	format := "%a %b %e %H:%M:%S %Z %Y"
	for _, a := range argv[1:] {
		switch {
		case strings.HasPrefix(a, "+"):
			format = a[1:]
		case a == "-I" || a == "-Idate":
			format = "%Y-%m-%d"
		case a == "-Iseconds":
			format = "%Y-%m-%dT%H:%M:%S%:z"
		case a == "-R":
			format = "%a, %d %b %Y %H:%M:%S %z"
		}
	}
	// Containers run in UTC unless TZ says otherwise; minicp's do.
	p.write(1, strftime(format, p.now.UTC())+"\n")
	p.status = 0
	return next
}

// strftime formats t with the directives busybox date knows best.
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteByte(format[i])
			continue
		}
		i++
		switch format[i] {
		case 'Y':
			b.WriteString(t.Format("2006"))
		case 'y':
			b.WriteString(t.Format("06"))
		case 'm':
			b.WriteString(t.Format("01"))
		case 'd':
			b.WriteString(t.Format("02"))
		case 'e':
			b.WriteString(t.Format("_2"))
		case 'H':
			b.WriteString(t.Format("15"))
		case 'M':
			b.WriteString(t.Format("04"))
		case 'S':
			b.WriteString(t.Format("05"))
		case 'N':
			fmt.Fprintf(&b, "%09d", t.Nanosecond())
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case ':':
			if i+1 < len(format) && format[i+1] == 'z' {
				i++
				b.WriteString(t.Format("-07:00"))
			}
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
