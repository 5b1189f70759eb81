package io.deltafunnel.routes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sharded load across processes, as a Kubernetes Indexed Job runs it: three JVMs run the packaged application
 * ({@code java -jar deltafunnel-app.jar}) with {@code JOB_COMPLETION_INDEX} 0, 1 and 2, one shard count and one load
 * id, against ONE emulator process. One of them is killed with SIGKILL in the middle of its bulk load and started
 * again. The target then holds exactly the rows of an unsharded load, and the final step ran once. A second runner of
 * the victim's shard, started while the victim holds it, is refused with exit status 1.
 *
 * <p>Caught mid-bulk without timing: the emulator runs with {@code --stall-bulk-load 2}, so the reply to the second
 * bulk load of the victim (which starts first, alone) is held; the emulator prints {@code bulk load stalled} once the
 * victim is inside it (its first batches uncommitted in its shard's transaction). The test kills it there, then lets
 * the held reply go (a line {@code release} on the emulator's standard input): it goes to a dead socket, the emulator
 * ends the session and rolls its transaction back, as SQL Server does for a killed client.
 *
 * <p>Needs the packaged application and the emulator's shaded jar ({@code mvn -pl routes -am verify}); no Docker.
 */
class ShardedApplicationProcessIT {

    private static final int ROWS = 6000;
    private static final int SHARDS = 3;
    private static final String PASSWORD = "Shard!Proc3ss";
    private static final String LOAD_ID = "deltafunnel-orders-it7q4";
    private static final long GUARD_SECONDS = 300; // a hang guard, not a timing assertion

    private static Path jar;
    private static Path table;

    @TempDir
    Path work;

    private Process emulator;
    private OutputStream emulatorCommands;
    private final CountDownLatch stalled = new CountDownLatch(1);
    private final StringBuilder emulatorOutput = new StringBuilder();
    private String url;
    private final List<Process> apps = new ArrayList<>();

    @BeforeAll
    static void findJar() throws Exception {
        Path built = Path.of(System.getProperty("deltafunnel.app.jar", "target/deltafunnel-app.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(built), "the packaged application is missing: " + built);
        jar = built;
        table = TestTargets.multiFileSample(ROWS, 12);
    }

    @AfterEach
    void stopAll() throws Exception {
        for (Process p : apps) {
            p.destroyForcibly();
        }
        if (emulator != null) {
            emulator.destroy();
            if (!emulator.waitFor(30, TimeUnit.SECONDS)) {
                emulator.destroyForcibly();
            }
        }
    }

    /** The emulator as its own process: its shaded jar, else its Main from this class path. */
    private void startEmulator(String... extra) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx1g"));
        Path emuJar = Path.of(System.getProperty("deltafunnel.emulator.jar", "none"));
        if (Files.isRegularFile(emuJar)) {
            cmd.addAll(List.of("-jar", emuJar.toString()));
        } else {
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.deltafunnel.emulator.Main"));
        }
        cmd.addAll(List.of("--port", "0", "--password", PASSWORD));
        cmd.addAll(List.of(extra));
        emulator = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        emulatorCommands = emulator.getOutputStream();
        BufferedReader out = new BufferedReader(new InputStreamReader(emulator.getInputStream(),
                StandardCharsets.UTF_8));
        Pattern ready = Pattern.compile("JDBC URL: (\\S+)");
        String line;
        while ((line = out.readLine()) != null) {
            emulatorOutput.append(line).append('\n');
            Matcher m = ready.matcher(line);
            if (m.find()) {
                url = m.group(1);
                break;
            }
        }
        assertTrue(url != null, "the emulator did not start: " + cmd + "\n" + emulatorOutput);
        Thread drain = new Thread(() -> {
            try {
                String l;
                while ((l = out.readLine()) != null) {
                    synchronized (emulatorOutput) {
                        emulatorOutput.append(l).append('\n');
                    }
                    if (l.contains("bulk load stalled")) {
                        stalled.countDown();
                    }
                }
            } catch (IOException e) {
                // the emulator ended
            }
        }, "emulator-output");
        drain.setDaemon(true);
        drain.start();
    }

    /** A running application process and what it printed so far. */
    private final class App {
        final Process process;
        final StringBuilder output = new StringBuilder();
        final Thread reader;

        App(Map<String, String> env) throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(java, "-Xmx768m", "-jar", jar.toString()).directory(work.toFile())
                    .redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("DELTAFUNNEL_") || k.startsWith("CAMEL_")
                                                    || k.equals(AppSettings.JOB_COMPLETION_INDEX));
            pb.environment().putAll(env);
            process = pb.start();
            apps.add(process);
            reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        synchronized (output) {
                            output.append(line).append('\n');
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                }
            });
            reader.start();
        }

        String output() {
            synchronized (output) {
                return output.toString();
            }
        }

        /** Waits for the end; returns the exit status. */
        int await() throws InterruptedException {
            boolean ended = process.waitFor(GUARD_SECONDS, TimeUnit.SECONDS);
            reader.join(10_000);
            System.out.println(output());
            assertTrue(ended, "the application did not end:\n" + output());
            return process.exitValue();
        }
    }

    /** The environment of the pod with {@code index} (Kubernetes sets JOB_COMPLETION_INDEX). */
    private Map<String, String> shardEnv(String target, int index) {
        Map<String, String> env = new HashMap<>(commonEnv(target));
        env.put("DELTAFUNNEL_SHARD_COUNT", Integer.toString(SHARDS));
        env.put("DELTAFUNNEL_LOAD_ID", LOAD_ID);
        env.put(AppSettings.JOB_COMPLETION_INDEX, Integer.toString(index));
        return env;
    }

    private Map<String, String> commonEnv(String target) {
        Map<String, String> env = new HashMap<>();
        env.put("DELTAFUNNEL_MSSQL_URL", url);
        env.put("DELTAFUNNEL_MSSQL_PASSWORD", PASSWORD);
        env.put("DELTAFUNNEL_SOURCE_PATH", table.toString());
        env.put("DELTAFUNNEL_TARGET_TABLE", target);
        // append: a final step that ran twice would show as twice the rows
        env.put("DELTAFUNNEL_WRITE_MODE", "append");
        env.put("DELTAFUNNEL_BATCH_SIZE", "100");
        env.put("DELTAFUNNEL_PROGRESS_IN_PLACE", "false");
        return env;
    }

    private List<List<Object>> query(String sql) throws Exception {
        return TestTargets.rows(url, "sa", PASSWORD, sql);
    }

    private long count(String table) throws Exception {
        return ((Number) query("SELECT COUNT_BIG(*) FROM " + table).get(0).get(0)).longValue();
    }

    @Test
    void threeShardProcessesOneKilledMidBulkAndRerunLoadTheTableExactlyOnce() throws Exception {
        // The victim: the shard with the most files (at 100 rows a batch it has several bulk loads).
        int[] files = TestTargets.shardFiles(table, SHARDS);
        int victim = 0;
        for (int i = 1; i < SHARDS; i++) {
            if (files[i] > files[victim]) {
                victim = i;
            }
        }
        assertTrue(files[victim] >= 1, java.util.Arrays.toString(files));
        startEmulator("--stall-bulk-load", "2");

        // 1. The victim starts alone and is caught inside its second bulk load.
        App first = new App(shardEnv("dbo.orders", victim));
        long guard = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
        while (!stalled.await(1, TimeUnit.SECONDS)) {
            assertTrue(first.process.isAlive(), "the victim ended before its bulk load stalled:\n" + first.output()
                    + "\nemulator:\n" + emulatorOutput);
            assertTrue(System.nanoTime() < guard, "no stall (hang guard):\n" + first.output());
        }

        // 2. A second runner of the same shard, while the victim holds it: refused before it writes, exit status 1
        //    (so that a Job's per-index backoff would try it again later).
        App duplicate = new App(shardEnv("dbo.orders", victim));
        assertEquals(1, duplicate.await(), duplicate.output());
        assertEquals(1, lines(duplicate.output(), "DeltaFunnel run FAILED on route load-table-shard-" + victim),
                duplicate.output());
        assertTrue(duplicate.output().lines().anyMatch(l -> l.startsWith("DeltaFunnel run FAILED")
                && l.contains("another runner holds this shard")), duplicate.output());
        assertTrue(first.process.isAlive(), "the victim is still inside its bulk load");

        // 3. The other two shards start, in parallel with it.
        List<App> others = new ArrayList<>();
        for (int i = 0; i < SHARDS; i++) {
            if (i != victim) {
                others.add(new App(shardEnv("dbo.orders", i)));
            }
        }

        // 4. SIGKILL the victim mid-bulk; the held reply then goes to a dead socket.
        first.process.destroyForcibly();
        assertNotEquals(0, first.await(), "killed");
        assertTrue(!first.output().contains("DeltaFunnel run complete"), first.output());
        emulatorCommands.write("release\n".getBytes(StandardCharsets.UTF_8));
        emulatorCommands.flush();

        // 5. The other two commit their shares and end with 0; the set is incomplete, so the final step waits.
        for (App other : others) {
            assertEquals(0, other.await(), other.output());
            assertEquals(1, lines(other.output(), ": shard-done]"), other.output());
            assertTrue(other.output().contains("[load " + LOAD_ID + " shard "), other.output());
        }
        assertEquals(0, count("[dbo].[orders]"), "the target is untouched until the last shard");
        List<List<Object>> pending = query("SELECT shard_index, status FROM [dbo].[deltafunnel_state_shards]"
                + " WHERE load_id = '" + LOAD_ID + "' AND status <> 'done'");
        assertEquals(1, pending.size(), pending.toString());
        assertEquals(victim, ((Number) pending.get(0).get(0)).intValue(), "the killed shard left nothing of its own");

        // 6. The victim's pod is started again (the Job's per-index retry): it completes the load.
        App rerun = new App(shardEnv("dbo.orders", victim));
        assertEquals(0, rerun.await(), rerun.output());
        assertEquals(1, lines(rerun.output(), "[load " + LOAD_ID + " shard " + victim + "/" + SHARDS + ": load-done]"),
                rerun.output());

        // 7. A done shard run again does nothing (exit 0, already-done) and the final step does not run twice.
        App again = new App(shardEnv("dbo.orders", (victim + 1) % SHARDS));
        assertEquals(0, again.await(), again.output());
        assertEquals(1, lines(again.output(), ": already-done]"), again.output());

        // The unsharded load of the same table, for comparison.
        App unsharded = new App(commonEnv("dbo.reference"));
        assertEquals(0, unsharded.await(), unsharded.output());

        List<List<Object>> expected = query("SELECT * FROM [dbo].[reference] ORDER BY order_id");
        assertEquals(ROWS, expected.size());
        assertEquals(expected, query("SELECT * FROM [dbo].[orders] ORDER BY order_id"), "exactly the unsharded rows");

        // The final step ran once, by the re-run victim, and moved every row.
        List<List<Object>> load = query("SELECT status, finished_by, final_rows, shard_count FROM"
                + " [dbo].[deltafunnel_state_loads] WHERE load_id = '" + LOAD_ID + "'");
        assertEquals(1, load.size(), load.toString());
        assertEquals("done", load.get(0).get(0));
        assertEquals(victim, ((Number) load.get(0).get(1)).intValue());
        assertEquals((long) ROWS, ((Number) load.get(0).get(2)).longValue());
        assertEquals(SHARDS, ((Number) load.get(0).get(3)).intValue());
        List<List<Object>> shards = query("SELECT status, [rows] FROM [dbo].[deltafunnel_state_shards] WHERE load_id = '"
                + LOAD_ID + "'");
        assertEquals(SHARDS, shards.size());
        assertEquals(ROWS, shards.stream().mapToLong(r -> ((Number) r.get(1)).longValue()).sum());
        assertTrue(shards.stream().allMatch(r -> "done".equals(r.get(0))), shards.toString());
        assertEquals(0L, count("INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '%df_load%'"), "staging dropped");
    }

    private static long lines(String out, String needle) {
        return out.lines().filter(l -> l.contains(needle)).count();
    }
}
