package io.deltafunnel.camel;

import java.time.Duration;

import io.deltafunnel.arrow.ArrowIpcException;
import io.deltafunnel.arrow.RecordBatches;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSession;
import io.deltafunnel.mssql.BulkLoadSettings;
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
 * <p>Keeps at most one open run per endpoint: a batch with a new run id (or a new attempt of the same run) while an
 * older run is still open (its complete batch never came) rolls back and discards the older run. Stopping the
 * producer discards an open run. Every exchange leaves with {@code CamelDeltaFunnelOutputBatches}/{@code
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
    private BulkLoadSession open;
    private int openAttempt;
    private RunFailures.Failed lastFailed;

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
    public synchronized void process(Exchange exchange) throws Exception {
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
        if (lastFailed != null) {
            lastFailed.refuseIfSameAttempt(runId, attempt,
                    exchange.getProperty(Exchange.BATCH_INDEX, -1, Integer.class));
            lastFailed = null;
        }
        if (open != null && (!open.runId().equals(runId) || openAttempt != attempt)) {
            open.abort("run " + runId + " attempt " + attempt + " started before run " + open.runId() + " attempt "
                    + openAttempt + " completed");
            open = null;
        }
        if (open == null) {
            open = BulkLoadSession.start(runId, settings, connections)
                    .recording(in.getHeader(DeltaFunnelConstants.INCREMENTAL, IncrementalLoad.class));
            openAttempt = attempt;
            LOG.debug("deltafunnel-mssql:{}: run {} attempt {} started", settings.table(), runId, attempt);
        }
        try {
            // An IPC body may hold several record batches: one write each; only the last can complete the run.
            // After the first, a retry must not restart a standalone run (earlier batches are in its session).
            VectorSchemaRoot root;
            while ((root = batches.next()) != null) {
                publish(exchange, writeRetryingInPlace(root, complete && batches.isLast(),
                        standalone && batches.index() == 0));
            }
        } catch (BulkLoadException e) {
            BulkLoadException failure = inPlace(standalone) ? e : RunFailures.replayOrFinal(e, attempt, retryPolicy);
            publish(exchange, failure.stats());
            if (!standalone) {
                lastFailed = new RunFailures.Failed(runId, attempt, failure);
            }
            throw failure;
        } catch (ArrowIpcException e) {
            // The IPC body broke off after some of its batches were written: discard the run, nothing half-written.
            if (open != null) {
                open.abort("the Arrow IPC body could not be read: " + e.getMessage());
                open = null;
            }
            throw e;
        } finally {
            if (open != null && open.state() != BulkLoadSession.State.OPEN) {
                open = null;
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
    private HandoffStats writeRetryingInPlace(VectorSchemaRoot root, boolean complete, boolean standalone) {
        int attempt = 1;
        while (true) {
            BulkLoadSession session = open;
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
                open = standalone ? BulkLoadSession.start(session.runId(), settings, connections)
                        : session.resumeAfterFailure();
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
        synchronized (this) {
            if (open != null) {
                open.abort("producer stopped");
                open = null;
            }
        }
        if (healthCheckRepository != null && healthCheck != null) {
            healthCheckRepository.removeHealthCheck(healthCheck);
            healthCheck = null;
        }
        super.doStop();
    }
}
