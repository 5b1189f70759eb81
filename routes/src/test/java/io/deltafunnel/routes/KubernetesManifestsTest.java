package io.deltafunnel.routes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kubernetes manifests of {@code deploy/kubernetes/}, parsed: an Indexed Job whose pods run the application image
 * as shard {@code JOB_COMPLETION_INDEX} of N, with the load id from the Job's name and the password from a Secret;
 * no password in plain text anywhere; settings the application knows; image and command as the Dockerfile builds them.
 */
class KubernetesManifestsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DIR = ROOT.resolve("deploy/kubernetes");
    private static final String JOB_NAME_LABEL = "metadata.labels['batch.kubernetes.io/job-name']";

    /** Every document of every YAML file, with the file it came from. */
    private static final List<Map<String, Object>> DOCS = new ArrayList<>();
    private static final Map<Map<String, Object>, Path> FROM = new HashMap<>();

    @BeforeAll
    static void parse() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(DIR)) {
            files = s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no YAML in " + DIR);
        Load load = new Load(LoadSettings.builder().build());
        for (Path file : files) {
            for (Object doc : load.loadAllFromString(Files.readString(file))) {
                if (doc == null) {
                    continue;
                }
                Map<String, Object> m = map(doc, file + ": a document");
                assertNotNull(m.get("apiVersion"), file + ": apiVersion");
                assertNotNull(m.get("kind"), file + ": kind");
                assertNotNull(m.get("metadata"), file + ": metadata");
                DOCS.add(m);
                FROM.put(m, file);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o, String what) {
        assertTrue(o instanceof Map, what + " is not a mapping: " + o);
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o, String what) {
        assertTrue(o instanceof List, what + " is not a list: " + o);
        return (List<Object>) o;
    }

    private static Object at(Map<String, Object> m, String path) {
        Object o = m;
        for (String part : path.split("\\.")) {
            o = map(o, path).get(part);
            if (o == null) {
                return null;
            }
        }
        return o;
    }

    private static List<Map<String, Object>> ofKind(String kind) {
        return DOCS.stream().filter(d -> kind.equals(d.get("kind"))).toList();
    }

    private static Map<String, Object> job() {
        List<Map<String, Object>> jobs = ofKind("Job");
        assertEquals(1, jobs.size(), "one Job in " + DIR);
        return jobs.get(0);
    }

    private static Map<String, Object> container() {
        List<Object> containers = list(at(job(), "spec.template.spec.containers"), "containers");
        assertEquals(1, containers.size());
        return map(containers.get(0), "container");
    }

    private static Map<String, Map<String, Object>> env() {
        Map<String, Map<String, Object>> out = new HashMap<>();
        for (Object e : list(container().get("env"), "env")) {
            Map<String, Object> entry = map(e, "env entry");
            assertNull(out.put((String) entry.get("name"), entry), "env " + entry.get("name") + " twice");
        }
        return out;
    }

    private static int shardCount() {
        Object v = env().get("DELTAFUNNEL_SHARD_COUNT").get("value");
        assertNotNull(v, "DELTAFUNNEL_SHARD_COUNT is a literal value");
        return Integer.parseInt(v.toString());
    }

    @Test
    void theJobIsIndexedWithOneCompletionAndOnePodPerShardAndPerIndexRetries() {
        Map<String, Object> job = job();
        assertEquals("batch/v1", job.get("apiVersion"));
        assertEquals("Indexed", at(job, "spec.completionMode"));
        int n = shardCount();
        assertTrue(n > 1, "a sharded load has N > 1");
        assertEquals(n, ((Number) at(job, "spec.completions")).intValue(), "completions = N");
        assertEquals(n, ((Number) at(job, "spec.parallelism")).intValue(), "parallelism = N");
        assertTrue(((Number) at(job, "spec.backoffLimitPerIndex")).intValue() > 0, "per-index retries");
        assertEquals("Never", at(job, "spec.template.spec.restartPolicy"), "required by backoffLimitPerIndex");
        // one Job per load: its generated name is the load id
        assertNotNull(at(job, "metadata.generateName"), "generateName: every created Job is a new load");
        assertNull(at(job, "metadata.name"));
    }

    @Test
    void thePodsGetShardIndexLoadIdAndPasswordFromKubernetes() {
        Map<String, Map<String, Object>> env = env();
        // the shard index is JOB_COMPLETION_INDEX: nothing may override it
        assertFalse(env.containsKey("DELTAFUNNEL_SHARD_INDEX"), "DELTAFUNNEL_SHARD_INDEX would override the index");
        assertFalse(env.containsKey("DELTAFUNNEL_SHARDS"), "one shard per pod, not all of them");
        assertEquals(JOB_NAME_LABEL, at(env.get("DELTAFUNNEL_LOAD_ID"), "valueFrom.fieldRef.fieldPath"));
        Map<String, Object> secret = map(at(env.get("DELTAFUNNEL_MSSQL_PASSWORD"), "valueFrom.secretKeyRef"),
                "secretKeyRef");
        assertNotNull(secret.get("name"));
        assertNotNull(secret.get("key"));
        for (Map<String, Object> cm : configMaps()) {
            Map<String, Object> data = map(cm.get("data"), "data");
            assertFalse(data.containsKey("DELTAFUNNEL_SHARD_INDEX"));
            assertFalse(data.containsKey("DELTAFUNNEL_SHARDS"));
            assertFalse(data.containsKey("DELTAFUNNEL_MSSQL_PASSWORD"));
        }
    }

    private static List<Map<String, Object>> configMaps() {
        List<Map<String, Object>> used = new ArrayList<>();
        for (Object e : list(container().get("envFrom"), "envFrom")) {
            String name = (String) at(map(e, "envFrom"), "configMapRef.name");
            List<Map<String, Object>> found = ofKind("ConfigMap").stream()
                    .filter(c -> name.equals(at(c, "metadata.name"))).toList();
            assertEquals(1, found.size(), "the ConfigMap " + name + " is in " + DIR);
            used.add(found.get(0));
        }
        return used;
    }

    /**
     * The environment Kubernetes gives pod {@code index} (ConfigMap, then env with the downward API and the Secret
     * resolved), read through the application's own settings: shard {@code index} of N, the Job's name, the secret.
     */
    @Test
    void thePodEnvironmentMakesTheApplicationShardIOfNOfTheJobsLoad() {
        String jobName = at(job(), "metadata.generateName") + "x7k2p";
        String password = "from-the-secret";
        Map<String, String> pod = new HashMap<>();
        for (Map<String, Object> cm : configMaps()) {
            map(cm.get("data"), "data").forEach((k, v) -> pod.put(k, String.valueOf(v)));
        }
        env().forEach((name, entry) -> {
            if (entry.get("value") != null) {
                pod.put(name, entry.get("value").toString());
            } else if (JOB_NAME_LABEL.equals(at(entry, "valueFrom.fieldRef.fieldPath"))) {
                pod.put(name, jobName);
            } else if (at(entry, "valueFrom.secretKeyRef") != null) {
                pod.put(name, password);
            }
        });
        int n = shardCount();
        for (int i = 0; i < n; i++) {
            Map<String, String> withIndex = new HashMap<>(pod);
            withIndex.put(AppSettings.JOB_COMPLETION_INDEX, Integer.toString(i)); // set by the Job controller
            AppSettings s = AppSettings.from(key -> withIndex.get(key.toUpperCase(Locale.ROOT).replace('.', '_')
                    .replace('-', '_')), withIndex::get);
            assertTrue(s.sharded());
            assertEquals(n, s.effectiveShardCount());
            assertEquals(List.of(i), s.shardIndexes());
            assertEquals(jobName, s.loadId());
            assertEquals(password, s.mssqlPassword());
            assertTrue(s.oneShot(), "one run per pod: the exit status tells the Job whether to retry the index");
            assertFalse(s.embeddedTarget(), "a real SQL Server URL is configured");
        }
    }

    private static final Pattern SECRETISH = Pattern.compile("(?i).*(password|passwd|pwd|secret|token).*");

    @Test
    void noPasswordIsWrittenInPlainText() throws IOException {
        for (Map<String, Object> doc : DOCS) {
            walk(doc, "", FROM.get(doc));
            if ("Secret".equals(doc.get("kind"))) {
                // only an example with placeholders is allowed
                for (String section : List.of("data", "stringData")) {
                    Object data = doc.get(section);
                    if (data != null) {
                        map(data, section).forEach((k, v) -> assertTrue(String.valueOf(v).matches("<[^>]+>"),
                                FROM.get(doc) + ": Secret " + section + "." + k + " is not a placeholder"));
                    }
                }
            }
        }
        // env entries named like a secret take it from a Secret
        env().forEach((name, entry) -> {
            if (SECRETISH.matcher(name).matches()) {
                assertNull(entry.get("value"), name + " has a literal value");
                assertNotNull(at(entry, "valueFrom.secretKeyRef"), name + " comes from a Secret");
            }
        });
        // and the raw text has no JDBC password either
        try (Stream<Path> s = Files.list(DIR)) {
            for (Path f : s.filter(f -> !f.toString().endsWith(".md")).toList()) {
                String text = Files.readString(f).toLowerCase(Locale.ROOT);
                assertFalse(text.contains(";password="), f + ": a password in a JDBC URL");
                assertFalse(text.contains("deltafunnel!2026"), f + ": the compose example's password");
            }
        }
    }

    private static void walk(Object node, String path, Path file) {
        if (node instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String key = String.valueOf(e.getKey());
                Object v = e.getValue();
                boolean secretish = SECRETISH.matcher(key).matches() && !key.equals("secretKeyRef")
                                    && !key.equals("secretRef");
                boolean inSecret = path.startsWith("data") || path.startsWith("stringData");
                if (secretish && !inSecret && !(v instanceof Map) && !(v instanceof List)) {
                    throw new AssertionError(file + ": " + path + key + " holds a literal value: " + v);
                }
                walk(v, path + key + ".", file);
            }
        } else if (node instanceof List<?> l) {
            for (Object o : l) {
                walk(o, path, file);
            }
        }
    }

    /** Every DELTAFUNNEL_* variable the manifests set is a key of application.properties (catches typos). */
    @Test
    void everySettingIsOneTheApplicationKnows() throws IOException {
        Properties p = new Properties();
        try (var in = KubernetesManifestsTest.class.getResourceAsStream("/application.properties")) {
            p.load(in);
        }
        Set<String> known = new HashSet<>();
        for (String key : p.stringPropertyNames()) {
            known.add(key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
        }
        Set<String> used = new HashSet<>(env().keySet());
        for (Map<String, Object> cm : configMaps()) {
            used.addAll(map(cm.get("data"), "data").keySet());
        }
        for (String name : used) {
            if (name.startsWith("DELTAFUNNEL_")) {
                assertTrue(known.contains(name), name + " is no setting of application.properties");
            }
        }
        assertTrue(used.contains("DELTAFUNNEL_MSSQL_URL"));
        Object mode = configMaps().stream().map(c -> map(c.get("data"), "data").get("DELTAFUNNEL_MODE"))
                .filter(v -> v != null).findFirst().orElse("oneshot");
        assertEquals("oneshot", mode);
    }

    /** The image is the one the README builds from the Dockerfile, and the Dockerfile's ENTRYPOINT runs it. */
    @Test
    void imageAndCommandMatchTheDockerfile() throws IOException {
        String dockerfile = Files.readString(ROOT.resolve("Dockerfile"));
        Matcher entry = Pattern.compile("(?m)^ENTRYPOINT\\s+\\[(.*)]\\s*$").matcher(dockerfile);
        assertTrue(entry.find(), "the Dockerfile has an exec-form ENTRYPOINT");
        List<String> entrypoint = new ArrayList<>();
        Matcher item = Pattern.compile("\"([^\"]*)\"").matcher(entry.group(1));
        while (item.find()) {
            entrypoint.add(item.group(1));
        }
        int jar = entrypoint.indexOf("-jar");
        assertTrue(jar >= 0 && jar + 1 < entrypoint.size(), "java -jar <app>: " + entrypoint);
        String appJar = entrypoint.get(jar + 1);
        // the routes build's jar, copied and laid out (NativeLayout) into the directory of the jar the ENTRYPOINT runs
        Matcher copy = Pattern.compile("(?m)^COPY --from=build \\S*routes/target/deltafunnel-app\\.jar (\\S+)$")
                .matcher(dockerfile);
        assertTrue(copy.find(), "the Dockerfile copies the jar of the routes build");
        String copied = copy.group(1);
        Path laidOut = Path.of(appJar);
        assertTrue(dockerfile.contains("io.deltafunnel.routes.NativeLayout " + copied + " " + laidOut.getParent()),
                "the Dockerfile lays the copied jar out into the ENTRYPOINT jar's directory");
        assertEquals(Path.of(copied).getFileName(), laidOut.getFileName(),
                "NativeLayout keeps the jar's name: the ENTRYPOINT runs the laid-out jar");

        Map<String, Object> c = container();
        // the image's own ENTRYPOINT runs the application; a command would replace it, args would be ignored by it
        Object command = c.get("command");
        if (command != null) {
            assertEquals(entrypoint, command, "a command must be the Dockerfile's ENTRYPOINT");
        }
        assertNull(c.get("args"), "the application takes its settings from the environment, not arguments");

        String readme = Files.readString(DIR.resolve("README.md"));
        Matcher build = Pattern.compile("docker build -t (\\S+) \\.").matcher(readme);
        assertTrue(build.find(), "the README builds the image");
        assertEquals(build.group(1), c.get("image"), "job.yaml runs the image the README builds");

        // and the README's secret is the one the Job reads
        Map<String, Object> ref = map(at(env().get("DELTAFUNNEL_MSSQL_PASSWORD"), "valueFrom.secretKeyRef"), "ref");
        assertTrue(readme.contains("kubectl create secret generic " + ref.get("name") + " --from-literal="
                                   + ref.get("key") + "="), "README creates the Secret " + ref);
    }

    /**
     * The scheduled form: a CronJob whose runs never overlap ({@code concurrencyPolicy: Forbid}: two loads of one
     * key at once leave the second stuck on a StateConflictException) and whose Job is exactly job.yaml's, so every
     * check of the Job above holds for it; each scheduled Job has a new name, hence a new load id.
     */
    @Test
    void theCronJobForbidsOverlappingRunsAndRunsTheJobAsItIs() {
        List<Map<String, Object>> crons = ofKind("CronJob");
        assertEquals(1, crons.size(), "one CronJob in " + DIR);
        Map<String, Object> cron = crons.get(0);
        assertEquals("batch/v1", cron.get("apiVersion"));
        assertEquals("Forbid", at(cron, "spec.concurrencyPolicy"), "overlapping loads of one key must not run");
        assertNotNull(at(cron, "spec.schedule"));
        assertEquals(at(job(), "spec"), at(cron, "spec.jobTemplate.spec"), "the jobTemplate is job.yaml's Job");
        assertNull(at(cron, "spec.jobTemplate.metadata.name"), "the CronJob names each Job: one load id per run");
    }
}
