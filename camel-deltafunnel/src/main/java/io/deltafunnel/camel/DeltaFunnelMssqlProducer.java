package io.deltafunnel.camel;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSession;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.ConnectionProvider;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.InvalidPayloadException;
import org.apache.camel.Message;
import org.apache.camel.support.DefaultProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each exchange's Arrow batch synchronously into SQL Server.
 *
 * <p>Keeps at most one open run per endpoint: a batch with a new run id while an older run is still open (its
 * complete batch never came) rolls back and discards the older run. Stopping the producer discards an open run.
 * Every exchange leaves with {@code CamelDeltaFunnelOutputBatches}/{@code CamelDeltaFunnelOutputRows} set to what SQL
 * Server accepted in the run so far, and the run's {@link HandoffStats} in the {@link #STATS_PROPERTY} property.
 */
public class DeltaFunnelMssqlProducer extends DefaultProducer {

    /** Exchange property holding the run's {@link HandoffStats} after this batch. */
    public static final String STATS_PROPERTY = "CamelDeltaFunnelHandoffStats";

    private static final Logger LOG = LoggerFactory.getLogger(DeltaFunnelMssqlProducer.class);

    private BulkLoadSettings settings;
    private ConnectionProvider connections;
    private BulkLoadSession open;

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
        connections = getEndpoint().connectionProvider();
    }

    @Override
    public synchronized void process(Exchange exchange) throws Exception {
        Message in = exchange.getIn();
        VectorSchemaRoot root = in.getBody(VectorSchemaRoot.class);
        if (root == null) {
            throw new InvalidPayloadException(exchange, VectorSchemaRoot.class);
        }
        String runId = in.getHeader(DeltaFunnelConstants.RUN_ID, String.class);
        boolean complete;
        if (runId == null) {
            runId = exchange.getExchangeId();
            complete = true;
        } else {
            complete = exchange.getProperty(Exchange.BATCH_COMPLETE, Boolean.FALSE, Boolean.class);
        }
        if (open != null && !open.runId().equals(runId)) {
            open.abort("run " + runId + " started before run " + open.runId() + " completed");
            open = null;
        }
        if (open == null) {
            open = BulkLoadSession.start(runId, settings, connections);
            LOG.debug("deltafunnel-mssql:{}: run {} started", settings.table(), runId);
        }
        BulkLoadSession session = open;
        try {
            HandoffStats stats = session.write(root, complete);
            publish(exchange, stats);
        } catch (BulkLoadException e) {
            publish(exchange, e.stats());
            throw e;
        } finally {
            if (session.state() != BulkLoadSession.State.OPEN) {
                open = null;
            }
        }
    }

    private static void publish(Exchange exchange, HandoffStats stats) {
        exchange.getMessage().setHeader(DeltaFunnelConstants.OUTPUT_BATCHES, stats.outputBatches());
        exchange.getMessage().setHeader(DeltaFunnelConstants.OUTPUT_ROWS, stats.outputRows());
        exchange.setProperty(STATS_PROPERTY, stats);
    }

    @Override
    protected synchronized void doStop() throws Exception {
        if (open != null) {
            open.abort("producer stopped");
            open = null;
        }
        super.doStop();
    }
}
