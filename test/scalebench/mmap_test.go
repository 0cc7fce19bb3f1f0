//go:build unix

package scalebench

import (
	"bufio"
	"errors"
	"io"
	"os"
	"syscall"
)

// fileSink keeps bodies in memory-mapped files, outside the Go heap: they do
// not count in the heap the collector paces itself by (as the API server's
// buffers would not), and the kernel can reclaim them. Each file is removed
// once mapped, and its pages are touched once, so that the timed sections do
// not pay the first faults.
type fileSink struct {
	maps [][]byte
}

func (s *fileSink) body(_ int, write func(io.Writer) error) (data []byte, err error) {
	f, err := os.CreateTemp("", "scalebench-body-*")
	if err != nil {
		return nil, err
	}
	defer func() {
		err = errors.Join(err, f.Close(), os.Remove(f.Name()))
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return nil, nil
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	s.maps = append(s.maps, data)
	var sum byte
	for i := 0; i < len(data); i += os.Getpagesize() {
		sum += data[i]
	}
	_ = sum
	return data, nil
}

// release unmaps the bodies; none may be used after.
func (s *fileSink) release() error {
	var errs []error
	for _, m := range s.maps {
		errs = append(errs, syscall.Munmap(m))
	}
	s.maps = nil
	return errors.Join(errs...)
}
