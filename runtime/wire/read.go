package wire

import (
	"bytes"
	"fmt"
	"io"
)

// decodeChunk is the most the decoders allocate for bytes that have not
// arrived yet: a buffer is sized by what was read so far, plus this.
const decodeChunk = 64 << 10

// unexpectedEOF turns the end of the body inside a message into an error.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readBounded reads the next n bytes of r into a new slice, n being a
// length read off the wire: a buffer of n bytes is allocated once they have
// all arrived; until then, the bytes go into pieces each at most as large as
// what arrived before it, or decodeChunk.
func readBounded(r io.Reader, n int) ([]byte, error) {
	if n <= decodeChunk {
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, unexpectedEOF(err)
		}
		return b, nil
	}
	var pieces [][]byte
	for got := 0; got < n; {
		p := make([]byte, min(n-got, max(decodeChunk, got)))
		m, err := io.ReadFull(r, p)
		got += m
		if err != nil {
			return nil, unexpectedEOF(err)
		}
		pieces = append(pieces, p)
	}
	return bytes.Join(pieces, nil), nil
}

// arena hands out buffers for items or events, many to one allocation; a
// decoded object copies what it keeps, so an allocation is freed once its
// last reader is done. An allocation is at most max bytes, and at most what
// was read before it (read), or decodeChunk.
type arena struct {
	buf  []byte
	max  int
	read func() int64
}

// size is the size of the arena's next allocation.
func (a *arena) size() int {
	return min(a.max, max(decodeChunk, int(min(a.read(), int64(a.max)))))
}

// carve returns the next n bytes of the arena, for bytes that have arrived:
// an allocation of their own when they do not fit a new one.
func (a *arena) carve(n int) []byte {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(n, a.size()))
	}
	b := a.buf[len(a.buf) : len(a.buf)+n]
	a.buf = a.buf[:len(a.buf)+n]
	return b
}

// next reads the next n bytes of r, n being a length read off the wire.
func (a *arena) next(r io.Reader, n int) ([]byte, error) {
	if cap(a.buf)-len(a.buf) < n && n > a.size() {
		return readBounded(r, n)
	}
	b := a.carve(n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, unexpectedEOF(err)
	}
	return b, nil
}

// recovered calls decode and turns a panic into an error: a decoding
// goroutine of the runtime's must not take the process down on a body no
// generated decoder was written for.
func recovered[V any](decode func() (V, error)) (v V, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decoding panicked: %v", r)
		}
	}()
	return decode()
}

// recorder keeps a copy of what is read through it, while on: the bytes of a
// response the runtime may yet hand to client-go's decoder. Its pieces grow
// with what was read, so that the copy is at most what arrived plus
// decodeChunk.
type recorder struct {
	r      io.Reader
	on     bool
	n      int64 // bytes read
	pieces [][]byte
}

func (rec *recorder) Read(p []byte) (int, error) {
	n, err := rec.r.Read(p)
	rec.n += int64(n)
	if rec.on && n > 0 {
		rec.keep(p[:n])
	}
	return n, err
}

func (rec *recorder) keep(b []byte) {
	for len(b) > 0 {
		if len(rec.pieces) == 0 || len(rec.pieces[len(rec.pieces)-1]) == cap(rec.pieces[len(rec.pieces)-1]) {
			size := min(4<<20, max(decodeChunk, int(min(rec.n, 4<<20))))
			rec.pieces = append(rec.pieces, make([]byte, 0, size))
		}
		last := &rec.pieces[len(rec.pieces)-1]
		k := min(len(b), cap(*last)-len(*last))
		*last = append(*last, b[:k]...)
		b = b[k:]
	}
}

// stop stops recording and drops what was kept.
func (rec *recorder) stop() {
	rec.on, rec.pieces = false, nil
}

// replay returns the whole body: what was recorded, then the rest of the
// body.
func (rec *recorder) replay() io.Reader {
	readers := make([]io.Reader, 0, len(rec.pieces)+1)
	for _, p := range rec.pieces {
		readers = append(readers, bytes.NewReader(p))
	}
	return io.MultiReader(append(readers, rec.r)...)
}
