package dev.platform.scheduler.testsupport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading a YAML document loaded by SnakeYAML as plain maps and lists (the scenario files). */
public final class YamlTree {

    private YamlTree() {
    }

    public static String str(Object o) {
        return o == null ? null : String.valueOf(o);
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> list(Object o) {
        return o == null ? List.of() : (List<Map<String, Object>>) o;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object o) {
        return o == null ? Map.of() : (Map<String, Object>) o;
    }

    public static Map<String, String> strMap(Object o) {
        Map<String, String> out = new LinkedHashMap<>();
        map(o).forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }

    @SuppressWarnings("unchecked")
    public static List<String> strList(Object o) {
        List<String> out = new ArrayList<>();
        for (Object x : o == null ? List.of() : (List<Object>) o) {
            out.add(String.valueOf(x));
        }
        return out;
    }

    /**
     * A scenario's {@code evicted} list, whose items are workload names or {@code {name, reason}}: each name with
     * its expected eviction reason (null when not said), in list order.
     */
    public static Map<String, String> evicted(Object o) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Object x : o == null ? List.of() : (List<?>) o) {
            if (x instanceof Map<?, ?> m) {
                out.put(String.valueOf(m.get("name")), str(m.get("reason")));
            } else {
                out.put(String.valueOf(x), null);
            }
        }
        return out;
    }
}
