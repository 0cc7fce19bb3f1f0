// Package wire decodes LIST responses and watch streams of one API type
// off the wire, on several goroutines, while the body is being read: the
// data path behind the informers informer-gen-plus generates
// (cache.NewClientListWatch). NewList returns the LIST of a resource,
// NewWatch its WATCH; both send the requests a client-go typed client
// sends, through the typed client's server, credentials and transport.
//
// # Contract
//
// The runtime decodes a response itself only where client-go's decoder,
// negotiated for the response's Content-Type by the typed client's codecs,
// would produce the same objects and the same watch events (type, object
// and error class) from the same bytes. Everything else goes through that
// client-go decoder, for that response only: nothing is switched off for
// good. In detail:
//
//   - The Content-Type decides, as in client-go: a response without one is
//     read as the request's content type (a LIST) or as JSON (a watch); an
//     unparsable one fails a LIST with an internal error; a type the codecs
//     do not decode fails as client-go fails (the response body is closed).
//   - The runtime decodes Kubernetes' protobuf (types with generated
//     protobuf code) and JSON. Protobuf is read by the wire rules, as the
//     generated Unmarshal methods read it: unknown fields are skipped in
//     every message, the last of a repeated singular field wins, an
//     envelope's ContentEncoding and ContentType are ignored as the
//     serializer ignores them. A JSON value is decoded by the serializer's
//     own unmarshalling function (sigs.k8s.io/json), into the same types.
//   - A message, event or list the runtime cannot promise client-go's result
//     for (another kind, a key in another case, a repeated member, a value
//     nested deeper than encoding/json allows, a malformed frame) is decoded
//     by client-go's decoder from the same bytes: a watch event by itself;
//     a LIST from every byte read so far and the rest of the body. Once a
//     LIST has shown its kind and started its items, only a body that
//     changes its kind afterwards (which no API server writes) is listed
//     again through the typed client.
//   - Errors keep client-go's classes: a watch ends quietly where client-go's
//     ends quietly (io.EOF and io.ErrUnexpectedEOF are returned as they
//     are, never wrapped), with an ERROR event where client-go sends one;
//     an API error is the same *errors.StatusError.
//
// # Memory
//
// No length field is trusted: a buffer is allocated for bytes that have
// arrived, plus at most one fixed chunk (decodeChunk); a LIST reads what
// the body holds, as client-go's reads all of it; a watch event is limited
// to client-go's 16 MiB (streaming.ErrObjectTooLarge past it, once that many
// bytes of it arrived). A watch reads ahead of its consumer at most
// ReadAheadBytes of events, plus the event being read; every body is closed
// on every path, and every goroutine of a watch ends once it is stopped.
package wire
