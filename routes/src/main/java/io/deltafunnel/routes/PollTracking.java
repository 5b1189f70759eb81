package io.deltafunnel.routes;

import io.deltafunnel.camel.DeltaFunnelConsumer;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.camel.spi.PollingConsumerPollStrategy;
import org.apache.camel.support.DefaultPollingConsumerPollStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll strategy {@link RunReporter} gives every {@code deltafunnel:} endpoint: one poll is one run (its replays
 * happen inside it). {@code begin} starts the run unless {@link OneShotPolicy} has finished the route; {@code commit}
 * and {@code rollback} end it. The strategy the route configured itself is kept and still called.
 */
final class PollTracking implements PollingConsumerPollStrategy {

    private static final Logger LOG = LoggerFactory.getLogger(RunReporter.class);

    private final RunReporter tracker;
    private final OneShotPolicy policy;
    private final PollingConsumerPollStrategy delegate;

    PollTracking(RunReporter tracker, OneShotPolicy policy, PollingConsumerPollStrategy delegate) {
        this.tracker = tracker;
        this.policy = policy;
        this.delegate = delegate == null ? new DefaultPollingConsumerPollStrategy() : delegate;
    }

    @Override
    public boolean begin(org.apache.camel.Consumer consumer, Endpoint endpoint) {
        RouteRun route = tracker.route(consumer, endpoint);
        if (route == null) {
            return delegate.begin(consumer, endpoint);
        }
        if (!policy.mayBegin(route.routeId)) {
            return false;
        }
        if (!route.active) {
            route.begin();
        }
        return delegate.begin(consumer, endpoint);
    }

    @Override
    public void commit(org.apache.camel.Consumer consumer, Endpoint endpoint, int polledMessages) {
        delegate.commit(consumer, endpoint, polledMessages);
        RouteRun route = tracker.route(consumer, endpoint);
        if (route == null || !route.active) {
            return;
        }
        boolean stopping = endpoint.getCamelContext().isStopping()
                || consumer instanceof org.apache.camel.support.service.ServiceSupport s
                   && (s.isStoppingOrStopped() || s.isSuspendingOrSuspended());
        if (stopping) {
            // the consumer abandoned the run: the application or the route is stopping
            tracker.finished(route, new RunStoppedException(), polledMessages);
            return;
        }
        if (consumer instanceof DeltaFunnelConsumer c && c.getRunBatchesLoaded() > 0) {
            return; // maxMessagesPerPoll cut the poll short: the run goes on at the next poll
        }
        tracker.finished(route, null, polledMessages);
    }

    @Override
    public boolean rollback(org.apache.camel.Consumer consumer, Endpoint endpoint, int retryCounter, Exception e)
            throws Exception {
        if (!(delegate instanceof DefaultPollingConsumerPollStrategy)) {
            delegate.rollback(consumer, endpoint, retryCounter, e);
        }
        RouteRun route = tracker.route(consumer, endpoint);
        if (route != null) {
            if (!route.active) {
                route.begin();
            }
            tracker.finished(route, e, 0);
        }
        return false;
    }

    /** A run the consumer abandoned because the application or its route stopped before the run ended. */
    static final class RunStoppedException extends RuntimeException {
        RunStoppedException() {
            super("the run did not finish: the application (or the route) stopped first; what the producer had not"
                  + " committed was rolled back");
        }
    }

    /** Logs a failed poll at debug level only: the run's summary line has already said what failed. */
    static final ExceptionHandler QUIET = new ExceptionHandler() {
        @Override
        public void handleException(Throwable exception) {
            LOG.debug("poll failed", exception);
        }

        @Override
        public void handleException(String message, Throwable exception) {
            LOG.debug(message, exception);
        }

        @Override
        public void handleException(String message, Exchange exchange, Throwable exception) {
            LOG.debug(message, exception);
        }
    };
}
