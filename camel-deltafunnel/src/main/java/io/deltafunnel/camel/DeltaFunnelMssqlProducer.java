package io.deltafunnel.camel;

import io.deltafunnel.arrow.RecordBatches;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.mssql.channel.CipherWarmup;
import io.deltafunnel.mssql.run.RunWriter;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.WritableHealthCheckRepository;
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
 * <p>The work is done by a Camel-free {@link RunWriter}; this class maps the exchange (body, run id, attempt, batch
 * index, completion, incremental and shard headers) to its calls and the result back to headers.
 *
 * <p>Keeps one open run per run id, at most {@code maxOpenRuns} at a time ({@link io.deltafunnel.mssql.run.OpenRuns}): runs arriving
 * concurrently (e.g. through {@code seda:} with several consumers) each write in their own session, a new run beyond
 * the limit is refused with a {@link io.deltafunnel.mssql.run.TooManyOpenRunsException}, a new attempt of an open run
 * discards the older attempt, and an exchange that fails after this producer accepted its batch discards its run.
 * The batches of one run must arrive in order. Stopping the producer discards every open run.
 * Every exchange leaves with {@code CamelDeltaFunnelOutputBatches}/{@code
 * CamelDeltaFunnelOutputRows} set to what SQL Server accepted in the run so far, and the run's {@link HandoffStats}
 * in the {@link DeltaFunnelConstants#HANDOFF_STATS} exchange property; the last exchange of a shard's run also
 * {@link DeltaFunnelConstants#LOAD_STATUS}. {@code CamelDeltaFunnelRejectedRows} counts the run's rows set aside
 * ({@code maxRejectedRows}); with {@code rejectEndpoint}, the last exchange of a committed run sends them there as
 * JSON lines ({@link RejectedRowsSender}).
 *
 * <p><b>Retries</b> (decided by {@link io.deltafunnel.mssql.SqlServerErrors}, by error number only, and limited by
 * the endpoint's {@link io.deltafunnel.mssql.run.RetryPolicy}):
 * <ul>
 *   <li>{@code transaction=batch} with append/truncate, and exchanges without a run id: the failed batch is written
 *       again, here, after the backoff, on a new connection; the batches committed before stay counted once.</li>
 *   <li>otherwise ({@code transaction=run}, replace, merge): the run is already rolled back; the producer throws a
 *       {@link io.deltafunnel.mssql.run.RunReplayException} asking the {@code deltafunnel:} consumer to replay the run
 *       from its first batch as the next attempt (header {@code CamelDeltaFunnelAttempt}).</li>
 * </ul>
 * After a run has failed here, its further batches of the same attempt are refused
 * ({@link io.deltafunnel.mssql.run.RunRefusedException}) so that a route which handles the failure cannot write half a run.
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
    private WritableHealthCheckRepository healthCheckRepository;
    private DeltaFunnelMssqlProducerHealthCheck healthCheck;
    private volatile RunWriter writer;
    private RejectedRowsSender rejectSender;

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
        pause.reset();
        if (getEndpoint().warmsUpCipher() && CipherWarmup.startOnce()) {
            LOG.debug("deltafunnel-mssql:{}: warming up AES-GCM in the background (cipherWarmup)",
                    getEndpoint().getConfiguration().getTable());
        }
        String rejectUri = getEndpoint().getConfiguration().getRejectEndpoint();
        if (rejectUri != null && !rejectUri.isBlank()) {
            // resolved and started now: a URI that does not resolve fails the start, before anything is written
            rejectSender = RejectedRowsSender.start(getEndpoint().getCamelContext(), rejectUri.trim());
        }
        writer = new RunWriter(getEndpoint().settings(), getEndpoint().channelProvider(), getEndpoint().retryPolicy(),
                getEndpoint().getConfiguration().getMaxOpenRuns(), pause::await)
                .shardClaimTimeout(java.time.Duration.ofMillis(getEndpoint().getConfiguration().getShardClaimTimeout()));
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
            LOG.debug("deltafunnel-mssql:{}: source unchanged ({}); nothing to write", writer.settings().table(),
                    in.getHeader(DeltaFunnelConstants.STATE));
            return;
        }
        RunWriter.Batch batch = batchOf(exchange, in);
        RunWriter.Written written;
        try (RecordBatches batches = ArrowBodies.batches(exchange)) {
            written = writer.write(batch, batches, stats -> publish(exchange, stats));
        }
        if (rejectSender != null && !written.rejected().isEmpty()) {
            rejectSender.send(batch.runId(), written.rejected()); // after the run committed
        }
        if (written.loadStatus() != null) {
            // the header carries the status's text (shard-done, load-done, already-done), read as such by the routes app
            exchange.getMessage().setHeader(DeltaFunnelConstants.LOAD_STATUS, written.loadStatus().text());
        }
        if (!batch.complete()) {
            // The route failing after this batch ends the run at the source: discard it here at once.
            exchange.getExchangeExtension().addOnCompletion(new SynchronizationAdapter() {
                @Override
                public void onFailure(Exchange failed) {
                    writer.abort(batch.runId(), batch.attempt(), "the route failed after batch "
                            + failed.getProperty(Exchange.BATCH_INDEX, "?", String.class) + " was written");
                }
            });
        }
    }

    /** The exchange's place in its run: run id, attempt, batch index, completion, incremental run and shard. */
    private static RunWriter.Batch batchOf(Exchange exchange, Message in) {
        IncrementalLoad incremental = in.getHeader(DeltaFunnelConstants.INCREMENTAL, IncrementalLoad.class);
        ShardAssignment shard = in.getHeader(DeltaFunnelConstants.SHARD, ShardAssignment.class);
        String runId = in.getHeader(DeltaFunnelConstants.RUN_ID, String.class);
        if (runId == null) {
            return RunWriter.Batch.standalone(exchange.getExchangeId(), incremental, shard)
                    .withRouteKey(exchange.getFromRouteId());
        }
        return new RunWriter.Batch(runId, false, in.getHeader(DeltaFunnelConstants.ATTEMPT, 1, Integer.class),
                exchange.getProperty(Exchange.BATCH_INDEX, -1, Integer.class),
                exchange.getProperty(Exchange.BATCH_COMPLETE, Boolean.FALSE, Boolean.class), incremental, shard,
                exchange.getFromRouteId());
    }

    private static void publish(Exchange exchange, HandoffStats stats) {
        exchange.getMessage().setHeader(DeltaFunnelConstants.OUTPUT_BATCHES, stats.outputBatches());
        exchange.getMessage().setHeader(DeltaFunnelConstants.OUTPUT_ROWS, stats.outputRows());
        exchange.getMessage().setHeader(DeltaFunnelConstants.REJECTED_ROWS, stats.rejectedRows());
        exchange.setProperty(DeltaFunnelConstants.HANDOFF_STATS, stats);
    }

    @Override
    protected void doStop() throws Exception {
        pause.cancel(); // a retry wait in process() ends now, so the lock below is free soon
        if (writer != null) {
            writer.close();
        }
        if (rejectSender != null) {
            rejectSender.stop();
            rejectSender = null;
        }
        if (healthCheckRepository != null && healthCheck != null) {
            healthCheckRepository.removeHealthCheck(healthCheck);
            healthCheck = null;
        }
        super.doStop();
    }
}
