package io.deltafunnel.routes;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.deltafunnel.camel.DeltaFunnelEndpoint;
import org.apache.camel.Exchange;
import org.apache.camel.Route;
import org.apache.camel.spi.RoutePolicy;

/**
 * One-shot termination of the {@code deltafunnel:} routes, as a Camel {@link RoutePolicy} (one instance shared by all
 * routes, installed by {@link RunReporter#install}): a route is expected from its initialisation on, runs
 * {@code repeatCount} times (once when it is 0), and no further poll begins after its last run or after a failed run
 * ({@link #mayBegin}). {@link #routesDone()} tells the application when the job is done; whether a failed run ends
 * it at once is the library's typed answer ({@link io.deltafunnel.handoff.HandoffException#permanent(Throwable)}).
 * Without one-shot mode it only tracks, and never refuses a poll.
 */
final class OneShotPolicy implements RoutePolicy {

    private final boolean oneShot;
    private final Map<String, Boolean> done = new ConcurrentHashMap<>();

    OneShotPolicy(boolean oneShot) {
        this.oneShot = oneShot;
    }

    boolean oneShot() {
        return oneShot;
    }

    /** A {@code deltafunnel:} route that one-shot mode waits for. */
    void expect(String routeId) {
        done.putIfAbsent(routeId, false);
    }

    /** False when one-shot mode has finished the route: its consumer must not begin another run. */
    boolean mayBegin(String routeId) {
        return !oneShot || !done.getOrDefault(routeId, false);
    }

    /**
     * Records that a run of {@code run}'s route finished ({@code run.runsFinished} already counts it); returns whether
     * the route is done now (it failed, or made all its runs).
     */
    boolean finished(RouteRun run, boolean failed) {
        boolean routeDone = failed || run.runsFinished >= run.expectedRuns();
        done.put(run.routeId, routeDone);
        return routeDone;
    }

    /** The ids of the deltafunnel: routes and whether each is done. */
    Map<String, Boolean> routesDone() {
        return new TreeMap<>(done);
    }

    @Override
    public void onInit(Route route) {
        if (route.getEndpoint() instanceof DeltaFunnelEndpoint) {
            expect(route.getRouteId());
        }
    }

    @Override
    public void onRemove(Route route) {
        done.remove(route.getRouteId());
    }

    @Override
    public void onStart(Route route) {
    }

    @Override
    public void onStop(Route route) {
    }

    @Override
    public void onSuspend(Route route) {
    }

    @Override
    public void onResume(Route route) {
    }

    @Override
    public void onExchangeBegin(Route route, Exchange exchange) {
    }

    @Override
    public void onExchangeDone(Route route, Exchange exchange) {
    }
}
