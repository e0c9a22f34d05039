package dev.platform.scheduler.kubernetes.handlers;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The protobuf bodies kubectl sends for the access reviews of {@code kubectl auth can-i} (its typed client sends
 * built-in kinds as {@code application/vnd.kubernetes.protobuf}): Kubernetes' envelope ({@code k8s\0} and a
 * runtime.Unknown) around a SelfSubjectAccessReview or SelfSubjectRulesReview, read into the JSON shape. Other kinds
 * are refused as an unsupported media type, and every answer is JSON, which the clients also accept.
 */
final class ProtobufReviews {

    static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    private ProtobufReviews() {
    }

    static Map<String, Object> read(byte[] body) {
        if (body.length < MAGIC.length || body[0] != 'k' || body[1] != '8' || body[2] != 's' || body[3] != 0) {
            throw StatusError.badRequest("the protobuf body does not start with Kubernetes' envelope");
        }
        Reader unknown = new Reader(body, MAGIC.length, body.length);
        String apiVersion = null;
        String kind = null;
        byte[] raw = new byte[0];
        while (unknown.more()) {
            int field = unknown.tag();
            if (field == 1) {
                Reader typeMeta = unknown.message();
                while (typeMeta.more()) {
                    int f = typeMeta.tag();
                    if (f == 1) {
                        apiVersion = typeMeta.string();
                    } else if (f == 2) {
                        kind = typeMeta.string();
                    } else {
                        typeMeta.skip();
                    }
                }
            } else if (field == 2) {
                raw = unknown.bytes();
            } else {
                unknown.skip();
            }
        }
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", apiVersion);
        object.put("kind", kind);
        if ("SelfSubjectAccessReview".equals(kind)) {
            object.put("spec", accessReviewSpec(raw));
        } else if ("SelfSubjectRulesReview".equals(kind)) {
            object.put("spec", rulesReviewSpec(raw));
        } else {
            throw StatusError.unsupportedMediaType(MEDIA_TYPE + " (for " + kind + "; send JSON)");
        }
        return object;
    }

    private static Map<String, Object> accessReviewSpec(byte[] review) {
        Map<String, Object> spec = new LinkedHashMap<>();
        Reader r = new Reader(review, 0, review.length);
        while (r.more()) {
            int field = r.tag();
            if (field == 2) {
                Reader s = r.message();
                while (s.more()) {
                    int f = s.tag();
                    if (f == 1) {
                        spec.put("resourceAttributes", fields(s.message(), "namespace", "verb", "group", "version",
                                "resource", "subresource", "name"));
                    } else if (f == 2) {
                        spec.put("nonResourceAttributes", fields(s.message(), "path", "verb"));
                    } else {
                        s.skip();
                    }
                }
            } else {
                r.skip();
            }
        }
        return spec;
    }

    private static Map<String, Object> rulesReviewSpec(byte[] review) {
        Reader r = new Reader(review, 0, review.length);
        while (r.more()) {
            if (r.tag() == 2) {
                return fields(r.message(), "namespace");
            }
            r.skip();
        }
        return new LinkedHashMap<>();
    }

    /** The string fields 1, 2, ... of a message, named in order. */
    private static Map<String, Object> fields(Reader message, String... names) {
        Map<String, Object> out = new LinkedHashMap<>();
        while (message.more()) {
            int field = message.tag();
            if (field >= 1 && field <= names.length && message.wireType() == 2) {
                out.put(names[field - 1], message.string());
            } else {
                message.skip();
            }
        }
        return out;
    }

    /** Protobuf's wire format, as much as these messages need. */
    private static final class Reader {
        private final byte[] data;
        private int at;
        private final int end;
        private int wireType;

        Reader(byte[] data, int from, int end) {
            this.data = data;
            this.at = from;
            this.end = end;
        }

        boolean more() {
            return at < end;
        }

        int tag() {
            long key = varint();
            wireType = (int) (key & 7);
            return (int) (key >>> 3);
        }

        int wireType() {
            return wireType;
        }

        long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (at >= end) {
                    throw StatusError.badRequest("a protobuf body ends inside a number");
                }
                byte b = data[at++];
                value |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
            throw StatusError.badRequest("a protobuf number is too long");
        }

        byte[] bytes() {
            int length = (int) varint();
            if (length < 0 || at + length > end) {
                throw StatusError.badRequest("a protobuf field is longer than its body");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(length);
            out.write(data, at, length);
            at += length;
            return out.toByteArray();
        }

        String string() {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        Reader message() {
            int length = (int) varint();
            if (length < 0 || at + length > end) {
                throw StatusError.badRequest("a protobuf message is longer than its body");
            }
            Reader inner = new Reader(data, at, at + length);
            at += length;
            return inner;
        }

        void skip() {
            switch (wireType) {
                case 0 -> varint();
                case 1 -> at += 8;
                case 2 -> bytes();
                case 5 -> at += 4;
                default -> throw StatusError.badRequest("a protobuf field of wire type " + wireType);
            }
        }
    }
}
