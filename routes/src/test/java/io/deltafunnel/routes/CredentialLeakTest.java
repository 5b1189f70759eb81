package io.deltafunnel.routes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.emulator.MssqlEmulator;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.impl.health.DefaultHealthCheckRegistry;
import org.apache.camel.impl.health.ProducersHealthCheckRepository;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.support.EventNotifierSupport;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 24, secrets, the in-JVM configuration paths: a distinctive password per path — the {@code password} endpoint
 * option, a password inside the {@code url} option (plain, and braced in another case), a {@code {{secret}}}
 * property placeholder, the SQL Server sink Kamelet's {@code password} property — each given wrong, so that the run
 * fails at login, plus one successful run whose password is inside its URL. None of them may appear in any log event
 * (at the application's levels, DeltaFunnel's own loggers at DEBUG; stack traces included), on standard output or
 * error, in the failed exchanges' exceptions, in a
 * health-check result or in Camel's rendering of the endpoints. {@link CredentialLeakDirectTest} runs it with
 * {@code bulkEncoder=direct}. The process-level paths are in {@code CredentialLeakProcessIT}.
 */
class CredentialLeakTest extends CamelTestSupport {

    /** path -> its password; a leak names its path. */
    static final Map<String, String> SECRETS = new LinkedHashMap<>();

    static {
        SECRETS.put("password endpoint option", "OptLeak!Pw1x");
        SECRETS.put("password inside the url option", "UrlLeak!Pw2x");
        SECRETS.put("braced PassWord inside the url option", "Url;Brace}Leak!Pw3x");
        SECRETS.put("{{secret}} property placeholder", "PlhLeak!Pw4x");
        SECRETS.put("Kamelet password property", "KamLeak!Pw5x");
        SECRETS.put("url of the successful run", "GoodLeak!Pw6x");
    }

    private static final List<String> FAILING = List.of("leak-option", "leak-url", "leak-url-braced",
            "leak-placeholder", "leak-kamelet");

    private static MssqlEmulator wrong;
    private static MssqlEmulator good;
    private static LogCapture capture;

    private final Map<String, List<Throwable>> failures = new ConcurrentHashMap<>();
    private final Set<String> completed = ConcurrentHashMap.newKeySet();

    @BeforeAll
    static void start() {
        capture = new LogCapture(Level.DEBUG);
        wrong = TestTargets.startEmulator(); // its password is none of SECRETS: every login to it fails
        good = MssqlEmulator.builder().port(0).password(SECRETS.get("url of the successful run")).start();
    }

    @AfterAll
    static void stop() {
        capture.close();
        wrong.close();
        good.close();
    }

    /** Options every producer gets: the bulk encoder. */
    protected String encoder() {
        return "driver";
    }

    @Override
    protected Properties useOverridePropertiesWithPropertiesComponent() {
        Properties p = new Properties();
        p.setProperty("leak.secret", SECRETS.get("{{secret}} property placeholder"));
        return p;
    }

    @Override
    protected CamelContext createCamelContext() throws Exception {
        CamelContext ctx = super.createCamelContext();
        HealthCheckRegistry registry = new DefaultHealthCheckRegistry();
        registry.setCamelContext(ctx);
        ctx.getCamelContextExtension().addContextPlugin(HealthCheckRegistry.class, registry);
        ProducersHealthCheckRepository producers = new ProducersHealthCheckRepository();
        producers.setEnabled(true);
        registry.register(producers);
        ctx.getManagementStrategy().addEventNotifier(new EventNotifierSupport() {
            @Override
            public void notify(CamelEvent event) {
                if (event instanceof CamelEvent.ExchangeFailedEvent f) {
                    Exchange e = f.getExchange();
                    failures.computeIfAbsent(String.valueOf(e.getFromRouteId()), k -> new ArrayList<>())
                            .add(e.getException());
                } else if (event instanceof CamelEvent.ExchangeCompletedEvent c && c.getExchange().getException() == null) {
                    completed.add(String.valueOf(c.getExchange().getFromRouteId()));
                }
            }
        });
        return ctx;
    }

    @Override
    protected RouteBuilder createRouteBuilder() throws Exception {
        String sample = TestTargets.smallSample().toString();
        String enc = "&bulkEncoder=" + encoder() + "&loginTimeout=5";
        String w = wrong.jdbcUrl();
        return new RouteBuilder() {
            private int sources;

            private String source() {
                return "deltafunnel:source" + sources++ + "?delta.source=" + sample + "&query=SELECT * FROM source&batchSize=5000"
                       + "&repeatCount=1&initialDelay=0";
            }

            @Override
            public void configure() {
                from(source()).routeId("leak-option")
                        .to("deltafunnel-mssql:dbo.leak_option?url=RAW(" + w + ")&username=sa&password=RAW("
                            + SECRETS.get("password endpoint option") + ")" + enc);
                from(source()).routeId("leak-url")
                        .to("deltafunnel-mssql:dbo.leak_url?url=RAW(" + w + ";user=sa;password="
                            + SECRETS.get("password inside the url option") + ")" + enc);
                from(source()).routeId("leak-url-braced")
                        .to("deltafunnel-mssql:dbo.leak_url_braced?url=RAW(" + w + ";PassWord={"
                            + SECRETS.get("braced PassWord inside the url option").replace("}", "}}")
                            + "};USER=sa)" + enc);
                from(source()).routeId("leak-placeholder")
                        .to("deltafunnel-mssql:dbo.leak_placeholder?url=RAW(" + w + ")&username=sa"
                            + "&password={{leak.secret}}" + enc);
                from(source()).routeId("leak-kamelet")
                        .to("kamelet:deltafunnel-mssql-sink?table=dbo.leak_kamelet&url=" + w + "&username=sa"
                            + "&password=RAW(" + SECRETS.get("Kamelet password property") + ")&bulkEncoder="
                            + encoder());
                from(source()).routeId("leak-good")
                        .to("deltafunnel-mssql:dbo.leak_good?url=RAW(" + good.jdbcUrl() + ";user=sa;password="
                            + SECRETS.get("url of the successful run") + ")&createTable=true" + enc);
            }
        };
    }

    @Test
    void noPasswordOfAnyPathAppearsInAnyOutput() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!(completed.contains("leak-good") && failures.keySet().containsAll(FAILING))
               && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(completed.contains("leak-good"), "the successful run completed: " + completed + "\n"
                                                    + capture.text());
        for (String route : FAILING) {
            assertTrue(failures.containsKey(route), route + " failed (wrong password): " + failures.keySet());
        }
        assertEquals(5000, TestTargets.count(good, "[dbo].[leak_good]"));

        StringBuilder rendered = new StringBuilder();
        for (List<Throwable> list : failures.values()) {
            for (Throwable t : list) {
                rendered.append(LogCapture.stackTrace(t)).append('\n');
            }
        }
        for (HealthCheck.Result r : HealthCheckHelper.invoke(context)) {
            rendered.append(r.getCheck().getId()).append(' ').append(r.getState()).append(' ')
                    .append(r.getMessage().orElse("")).append(' ').append(r.getDetails()).append('\n');
            r.getError().ifPresent(e -> rendered.append(LogCapture.stackTrace(e)));
        }
        for (Endpoint e : context.getEndpoints()) {
            rendered.append(e).append('\n');
        }
        context.stop(); // the shutdown's log lines too
        String all = capture.text() + "\n" + rendered;
        java.nio.file.Files.writeString(java.nio.file.Path.of("target", getClass().getSimpleName() + "-output.txt"),
                all);
        assertTrue(all.contains("Login failed"), "the failures were seen:\n" + all);
        List<String> leaks = new ArrayList<>();
        for (Map.Entry<String, String> s : SECRETS.entrySet()) {
            for (String needle : needles(s.getValue())) {
                int at = all.indexOf(needle);
                if (at >= 0) {
                    leaks.add(s.getKey() + " leaked: ..." + all.substring(Math.max(0, at - 300),
                            Math.min(all.length(), at + 60)) + "...");
                    break;
                }
            }
        }
        if (!leaks.isEmpty()) {
            fail(String.join("\n\n", leaks));
        }
    }

    /** The secret as written, and its distinctive parts (a braced value may be rendered split or escaped). */
    static List<String> needles(String secret) {
        List<String> out = new ArrayList<>(List.of(secret, secret.replace("}", "}}")));
        for (String part : secret.split("[;}]")) {
            if (part.contains("Leak")) {
                out.add(part);
            }
        }
        return out;
    }
}
