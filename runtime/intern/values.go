package intern

import "encoding/binary"

var (
	trueValue  = true
	falseValue = false
)

// Bool returns a shared pointer to *p (one for true, one for false), or nil
// if p is nil. The value pointed to must not change.
func Bool(p *bool) *bool {
	switch {
	case p == nil:
		return nil
	case *p:
		return &trueValue
	default:
		return &falseValue
	}
}

var (
	int32s table
	int64s table
)

// Int32 returns the canonical pointer to the value *p, or nil if p is nil.
// The first pointer seen for a value becomes canonical. The value pointed to
// must not change.
func Int32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	var buf [binary.MaxVarintLen64]byte
	key := binary.AppendVarint(buf[:0], int64(*p))
	return sharePointer(&int32s, key, p, nil)
}

// Int64 returns the canonical pointer to the value *p, or nil if p is nil,
// as Int32 does.
func Int64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	var buf [binary.MaxVarintLen64]byte
	key := binary.AppendVarint(buf[:0], *p)
	return sharePointer(&int64s, key, p, nil)
}
