package io.deltafunnel.camel;

import java.time.Duration;

import io.deltafunnel.arrow.ArrowIpcException;
import io.deltafunnel.arrow.RecordBatches;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSession;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.OpenRuns;
import io.deltafunnel.mssql.SqlChannelProvider;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.WritableHealthCheckRepository;
import io.deltafunnel.mssql.RetryPolicy;
import io.deltafunnel.mssql.RunFailures;
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WriteMode;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.support.DefaultProducer;
import org.apache.camel.support.SynchronizationAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each exchange's Arrow batch synchronously into SQL Server.
 *
 * <p>The body is a {@link VectorSchemaRoot} (borrowed: its owner closes it) or Arrow IPC (stream or file format, as
 * {@code byte[]}, {@code InputStream}, {@code File}, {@code Path} or a file component's {@code GenericFile}); each
 * record batch of an IPC body is written in turn as one batch of the run, and only the last one can complete it
 * (see {@link ArrowBodies}).
 *
 * <p>Keeps one open run per run id, at most {@code maxOpenRuns} at a time ({@link OpenRuns}): runs arriving
 * concurrently (e.g. through {@code seda:} with several consumers) each write in their own session, a new run beyond
 * the limit is refused with a {@link io.deltafunnel.mssql.TooManyOpenRunsException}, a new attempt of an open run
 * discards the older attempt, and an exchange that fails after this producer accepted its batch discards its run.
 * The batches of one run must arrive in order. Stopping the producer discards every open run.
 * Every exchange leaves with {@code CamelDeltaFunnelOutputBatches}/{@code
 * CamelDeltaFunnelOutputRows} set to what SQL Server accepted in the run so far, and the run's {@link HandoffStats}
 * in the {@link DeltaFunnelConstants#HANDOFF_STATS} exchange property.
 *
 * <p><b>Retries</b> (decided by {@link io.deltafunnel.mssql.SqlServerErrors}, by error number only, and limited by
 * the endpoint's {@link RetryPolicy}):
 * <ul>
 *   <li>{@code transaction=batch} with append/truncate, and exchanges without a run id: the failed batch is written
 *       again, here, after the backoff, on a new connection; the batches committed before stay counted once.</li>
 *   <li>otherwise ({@code transaction=run}, replace, merge): the run is already rolled back; the producer throws a
 *       {@link io.deltafunnel.mssql.RunReplayException} asking the {@code deltafunnel:} consumer to replay the run
 *       from its first batch as the next attempt (header {@code CamelDeltaFunnelAttempt}).</li>
 * </ul>
 * After a run has failed here, its further batches of the same attempt are refused
 * ({@link io.deltafunnel.mssql.RunRefusedException}) so that a route which handles the failure cannot write half a run.
 *
 * <p><b>Camel redelivery.</b> A route's {@code errorHandler} / {@code onException} redelivery of the batch that failed
 * is answered with the same failure at once (redelivering one batch of a run that has been rolled back cannot
 * succeed, and the run's retry is this producer's {@code maxRetries}): when Camel's redeliveries are exhausted, the
 * error handler sees the original failure, and a {@link io.deltafunnel.handoff.ReplayRequest} in it still makes the
 * {@code deltafunnel:} consumer replay the run. Redelivery of the route's other steps is unchanged.
 */
public class DeltaFunnelMssqlProducer extends DefaultProducer {

    private static final Logger LOG = LoggerFactory.getLogger(DeltaFunnelMssqlProducer.class);

    private final RetryPause pause = new RetryPause(
            () -> !isRunAllowed() || getEndpoint().getCamelContext().isStopping());
    private BulkLoadSettings settings;
    private SqlChannelProvider connections;
    private WritableHealthCheckRepository healthCheckRepository;
    private DeltaFunnelMssqlProducerHealthCheck healthCheck;
    private RetryPolicy retryPolicy;
    private volatile OpenRuns runs;

    public DeltaFunnelMssqlProducer(DeltaFunnelMssqlEndpoint endpoint) {
        super(endpoint);
    }

    @Override
    public DeltaFunnelMssqlEndpoint getEndpoint() {
        return (DeltaFunnelMssqlEndpoint) super.getEndpoint();
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        settings = getEndpoint().settings();
        connections = getEndpoint().channelProvider();
        retryPolicy = getEndpoint().retryPolicy();
        runs = new OpenRuns(String.valueOf(settings.table()), getEndpoint().getMaxOpenRuns());
        pause.reset();
        // A readiness check that reports whether SQL Server is reachable (camel-health "producers" repository).
        healthCheckRepository = HealthCheckHelper.getHealthCheckRepository(getEndpoint().getCamelContext(),
                "producers", WritableHealthCheckRepository.class);
        if (healthCheckRepository != null) {
            healthCheck = new DeltaFunnelMssqlProducerHealthCheck(getEndpoint(), getEndpoint().getId());
            healthCheck.setEnabled(getEndpoint().getComponent().isHealthCheckProducerEnabled());
            healthCheckRepository.addHealthCheck(healthCheck);
        }
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        Message in = exchange.getIn();
        if (in.getHeader(DeltaFunnelConstants.UNCHANGED, Boolean.FALSE, Boolean.class) && in.getBody() == null) {
            LOG.debug("deltafunnel-mssql:{}: source unchanged ({}); nothing to write", settings.table(),
                    in.getHeader(DeltaFunnelConstants.STATE));
            return;
        }
        try (RecordBatches batches = ArrowBodies.batches(exchange)) {
            process(exchange, in, batches);
        }
    }

    /** Writes the body's batches (one, or each record batch of an Arrow IPC body) as batches of the exchange's run. */
    private void process(Exchange exchange, Message in, RecordBatches batches) {
        String runId = in.getHeader(DeltaFunnelConstants.RUN_ID, String.class);
        boolean standalone = runId == null;
        boolean complete;
        int attempt;
        if (standalone) {
            runId = exchange.getExchangeId();
            complete = true;
            attempt = 1;
        } else {
            complete = exchange.getProperty(Exchange.BATCH_COMPLETE, Boolean.FALSE, Boolean.class);
            attempt = in.getHeader(DeltaFunnelConstants.ATTEMPT, 1, Integer.class);
        }
        String id = runId;
        OpenRuns.Run run;
        try {
            run = runs.runFor(runId, attempt, exchange.getProperty(Exchange.BATCH_INDEX, -1, Integer.class), () -> {
                LOG.debug("deltafunnel-mssql:{}: run {} attempt {} started", settings.table(), id, attempt);
                return BulkLoadSession.start(id, settings, connections)
                        .recording(in.getHeader(DeltaFunnelConstants.INCREMENTAL, IncrementalLoad.class));
            });
        } catch (BulkLoadException refused) {
            publish(exchange, refused.stats());
            throw refused;
        }
        synchronized (run) {
            try {
                // An IPC body may hold several record batches: one write each; only the last can complete the run.
                // After the first, a retry must not restart a standalone run (earlier batches are in its session).
                VectorSchemaRoot root;
                while ((root = batches.next()) != null) {
                    publish(exchange, writeRetryingInPlace(run, root, complete && batches.isLast(),
                            standalone && batches.index() == 0));
                }
                if (!complete) {
                    // The route failing after this batch ends the run at the source: discard it here at once.
                    exchange.getExchangeExtension().addOnCompletion(new SynchronizationAdapter() {
                        @Override
                        public void onFailure(Exchange failed) {
                            runs.abort(id, attempt, "the route failed after batch "
                                    + failed.getProperty(Exchange.BATCH_INDEX, "?", String.class) + " was written");
                        }
                    });
                }
            } catch (BulkLoadException e) {
                BulkLoadException failure = inPlace(standalone) ? e
                        : RunFailures.replayOrFinal(e, attempt, retryPolicy);
                publish(exchange, failure.stats());
                if (!standalone) {
                    runs.failed(runId, attempt, exchange.getProperty(Exchange.BATCH_INDEX, -1, Integer.class), failure);
                }
                throw failure;
            } catch (ArrowIpcException e) {
                // The IPC body broke off after some of its batches were written: discard the run, nothing half-written.
                runs.abort(id, attempt, "the Arrow IPC body could not be read: " + e.getMessage());
                throw e;
            } finally {
                runs.release(run);
            }
        }
    }

    /** Whether a failed batch is retried here (the batch is in memory and nothing else of the run is lost). */
    private boolean inPlace(boolean standalone) {
        return standalone || (settings.transactionMode() == TransactionMode.BATCH
                && (settings.writeMode() == WriteMode.APPEND || settings.writeMode() == WriteMode.TRUNCATE));
    }

    /**
     * Writes the batch into the open session; when the batch can be retried in place, retries transient failures
     * with backoff on a new session (resumed for batch mode, fresh for a single-exchange run).
     */
    private HandoffStats writeRetryingInPlace(OpenRuns.Run run, VectorSchemaRoot root, boolean complete,
            boolean standalone) {
        int attempt = 1;
        while (true) {
            BulkLoadSession session = run.session();
            try {
                return session.write(root, complete);
            } catch (BulkLoadException e) {
                if (!inPlace(standalone) || !RunFailures.retryable(e)) {
                    throw e;
                }
                if (!retryPolicy.allowsRetryAfter(attempt)) {
                    throw RunFailures.exhausted(e, attempt);
                }
                Duration delay = retryPolicy.delayBeforeRetry(attempt);
                LOG.warn("deltafunnel-mssql:{}: run {}: transient failure (attempt {}), retrying the batch in {} ms: {}",
                        settings.table(), session.runId(), attempt, delay.toMillis(), e.getMessage());
                if (!pause.await(delay)) {
                    throw e;
                }
                attempt++;
                run.session(standalone ? BulkLoadSession.start(session.runId(), settings, connections)
                        : session.resumeAfterFailure());
            }
        }
    }

    private static void publish(Exchange exchange, HandoffStats stats) {
        exchange.getMessage().setHeader(DeltaFunnelConstants.OUTPUT_BATCHES, stats.outputBatches());
        exchange.getMessage().setHeader(DeltaFunnelConstants.OUTPUT_ROWS, stats.outputRows());
        exchange.setProperty(DeltaFunnelConstants.HANDOFF_STATS, stats);
    }

    @Override
    protected void doStop() throws Exception {
        pause.cancel(); // a retry wait in process() ends now, so the lock below is free soon
        if (runs != null) {
            runs.abortAll("producer stopped");
        }
        if (healthCheckRepository != null && healthCheck != null) {
            healthCheckRepository.removeHealthCheck(healthCheck);
            healthCheck = null;
        }
        super.doStop();
    }
}
