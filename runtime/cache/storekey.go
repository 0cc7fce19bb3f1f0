package cache

import (
	"strconv"
	"strings"
)

// keyBufLen is the size of the stack buffers store keys are built in: room
// for the longest key of a valid object (a 63-byte namespace, a slash and a
// 253-byte name). Longer keys are built on the heap.
const keyBufLen = 320

// appendStoreKey appends to buf the key under which the store finds the
// object called name in namespace. It is the object's client-go key
// ("namespace/name", or "name" when namespace is empty) when neither part
// holds a slash, as in every valid object, so that GetByKey looks a client-go
// key up as it is. Otherwise it is "/" + len(namespace) + "/" + namespace +
// "/" + name: no client-go key starts with a slash, so keys that client-go's
// form would confuse (the cluster-scoped object "a/b" and the object "b" of
// namespace "a") stay distinct.
func appendStoreKey(buf []byte, namespace, name string) []byte {
	if strings.IndexByte(namespace, '/') < 0 && strings.IndexByte(name, '/') < 0 {
		if namespace != "" {
			buf = append(buf, namespace...)
			buf = append(buf, '/')
		}
		return append(buf, name...)
	}
	buf = append(buf, '/')
	buf = strconv.AppendInt(buf, int64(len(namespace)), 10)
	buf = append(buf, '/')
	buf = append(buf, namespace...)
	buf = append(buf, '/')
	return append(buf, name...)
}
