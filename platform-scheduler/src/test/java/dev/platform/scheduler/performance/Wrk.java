package dev.platform.scheduler.performance;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * wrk (Debian's package {@code wrk}), a load generator light enough to share the machine with the platform and
 * PostgreSQL: a few threads of C and Lua where a Java client costs a JIT and a thread per connection. Each
 * connection sends its next request when the previous one is answered, as the Java client does. Requests are
 * built by a Lua script: every one a YAML body with a name of its own (each part of the body in a long bracket
 * opened on the line before it, since Lua drops a newline that follows the bracket).
 */
final class Wrk {

    private static final Pattern RESULT = Pattern.compile(
            "^RESULT (\\d+) (\\d+) ([0-9.]+) ([0-9.]+) ([0-9.]+) ([0-9.]+)$", Pattern.MULTILINE);

    private Wrk() {
    }

    /** Whether {@code wrk} is on the PATH. */
    static boolean available() {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String directory : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(directory, "wrk"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * What {@code connections} connections got in {@code duration}: 201 answers (the submissions), every other
     * answer (failures), and the latency of all answers.
     */
    record Result(long created, long failures, double p50Millis, double p99Millis, double maxMillis, double seconds,
                  String failureSample) {
    }

    /**
     * POSTs to {@code baseUrl + path}, each body {@code before + name + after} with a name made of {@code prefix},
     * the wrk thread and a counter; with an {@code Idempotency-Key} (the name) when {@code keyed}.
     */
    static Result post(String baseUrl, String token, String path, String before, String after, String prefix,
                       boolean keyed, int connections, Duration duration, Path workDir) {
        try {
            Files.createDirectories(workDir);
            Path script = workDir.resolve(prefix + ".lua");
            Files.writeString(script, script(token, path, before, after, prefix, keyed), StandardCharsets.UTF_8);
            Path output = workDir.resolve(prefix + ".out");
            List<String> command = new ArrayList<>(List.of("wrk", "-t", "2", "-c", Integer.toString(connections),
                    "-d", duration.toSeconds() + "s", "--timeout", "30s", "-s", script.toString(), baseUrl));
            Process wrk = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!wrk.waitFor(duration.toSeconds() + 120, TimeUnit.SECONDS)) {
                wrk.destroyForcibly();
                throw new IllegalStateException("wrk did not end; its output: " + output);
            }
            String text = Files.readString(output);
            Matcher result = RESULT.matcher(text);
            if (wrk.exitValue() != 0 || !result.find()) {
                throw new IllegalStateException("wrk failed (exit " + wrk.exitValue() + "): " + text);
            }
            int failureLine = text.indexOf("FAILED ");
            return new Result(Long.parseLong(result.group(1)), Long.parseLong(result.group(2)),
                    Double.parseDouble(result.group(3)), Double.parseDouble(result.group(4)),
                    Double.parseDouble(result.group(5)), Double.parseDouble(result.group(6)),
                    failureLine < 0 ? "" : text.substring(failureLine, text.indexOf('\n', failureLine)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Counts 201s and other answers per thread, prints the first few failures, and at the end one line: created,
     * failures, p50, p99 and max latency in milliseconds, and the run's seconds.
     */
    private static String script(String token, String path, String before, String after, String prefix,
                                 boolean keyed) {
        return """
                local threads = {}
                function setup(thread)
                  thread:set("tid", #threads + 1)
                  table.insert(threads, thread)
                end
                function init(args)
                  counter = 0
                  created = 0
                  failures = 0
                  prefix = "%s-" .. tid .. "-"
                end
                function request()
                  counter = counter + 1
                  local name = prefix .. counter
                  local headers = {["Content-Type"] = "application/yaml", ["Authorization"] = "Bearer %s"}
                  if %s then headers["Idempotency-Key"] = name end
                  return wrk.format("POST", "%s", headers, [==[
                %s]==] .. name .. [==[
                %s]==])
                end
                function response(status, headers, body)
                  if status == 201 then
                    created = created + 1
                  else
                    failures = failures + 1
                    if failures <= 3 then io.write("FAILED " .. status .. " " .. body:gsub("\\n", " ") .. "\\n") end
                  end
                end
                function done(summary, latency, requests)
                  local c, f = 0, 0
                  for _, thread in ipairs(threads) do
                    c = c + thread:get("created")
                    f = f + thread:get("failures")
                  end
                  io.write(string.format("RESULT %%d %%d %%.3f %%.3f %%.3f %%.3f\\n", c, f,
                    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
                    summary.duration / 1e6))
                end
                """.formatted(prefix, token, keyed, path, before, after);
    }
}
