package io.deltafunnel.camel;

import java.util.List;

import io.deltafunnel.mssql.reject.RejectedRow;

import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.Producer;
import org.apache.camel.support.service.ServiceHelper;
import org.apache.camel.util.URISupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a committed run's rejected rows to the producer's {@code rejectEndpoint}: one exchange per run, its body the
 * rows as JSON lines ({@link RejectedRow#toJson()}, one per line), headers {@code CamelDeltaFunnelRunId} and
 * {@code CamelDeltaFunnelRejectedRows}. The endpoint is resolved and its producer started when the
 * {@code deltafunnel-mssql:} producer starts (a URI that does not resolve fails that start, before anything is
 * written); this class owns that producer and stops it.
 *
 * <p>The rows are already committed into the reject table when they are sent, so a failed send does not undo the
 * run: it is logged with its cause, and the rows stay in the reject table.
 */
final class RejectedRowsSender {

    private static final Logger LOG = LoggerFactory.getLogger(RejectedRowsSender.class);

    private final String uri;
    private final Endpoint endpoint;
    private final Producer producer;

    private RejectedRowsSender(String uri, Endpoint endpoint, Producer producer) {
        this.uri = URISupport.sanitizeUri(uri); // only ever logged: no secret of the URI
        this.endpoint = endpoint;
        this.producer = producer;
    }

    /**
     * Resolves {@code uri} and starts a producer on it.
     *
     * @throws IllegalArgumentException naming the URI when it does not resolve or its producer cannot start
     */
    static RejectedRowsSender start(CamelContext context, String uri) {
        Endpoint endpoint;
        Producer producer;
        try {
            endpoint = context.getEndpoint(uri);
            if (endpoint == null) {
                throw new IllegalArgumentException("no endpoint");
            }
            producer = endpoint.createProducer();
            ServiceHelper.startService(producer);
        } catch (Exception e) {
            throw new IllegalArgumentException("rejectEndpoint '" + URISupport.sanitizeUri(uri) + "' does not resolve to a Camel endpoint: "
                    + e.getMessage(), e);
        }
        return new RejectedRowsSender(uri, endpoint, producer);
    }

    /** Sends {@code rows} of the committed run {@code runId} as one body of JSON lines. */
    void send(String runId, List<RejectedRow> rows) {
        StringBuilder body = new StringBuilder(rows.size() * 256);
        for (RejectedRow r : rows) {
            body.append(r.toJson()).append('\n');
        }
        Exchange exchange = endpoint.createExchange();
        exchange.getIn().setBody(body.toString());
        exchange.getIn().setHeader(DeltaFunnelConstants.RUN_ID, runId);
        exchange.getIn().setHeader(DeltaFunnelConstants.REJECTED_ROWS, (long) rows.size());
        try {
            producer.process(exchange);
        } catch (Exception e) {
            exchange.setException(e);
        }
        if (exchange.getException() != null) {
            LOG.warn("Run {}: committed with {} rejected rows (in the reject table), but sending them to {} failed: {}",
                    runId, rows.size(), uri, exchange.getException().toString());
        }
    }

    void stop() {
        ServiceHelper.stopService(producer);
    }
}
