package io.deltafunnel.routes;

import java.util.Locale;

import org.apache.camel.NoSuchEndpointException;
import org.apache.camel.ResolveEndpointFailedException;
import org.apache.camel.catalog.CamelCatalog;
import org.apache.camel.catalog.DefaultCamelCatalog;
import org.apache.camel.tooling.model.ComponentModel;

/**
 * Turns Camel's "no component" start failure into what to do about it: the component, the Maven artifact that
 * provides it (from the Camel catalog) and where it was looked for.
 */
final class MissingComponents {

    private static final String NOT_FOUND = "Cannot find component with name: ";

    private static volatile CamelCatalog catalog;

    private MissingComponents() {
    }

    /**
     * The explanation when {@code failure} is an endpoint whose component is missing (the application does not bundle
     * it and it could not be resolved), else null.
     *
     * @param sources where missing artifacts were looked for ({@link ResolutionSettings#describeSources()})
     */
    static String explain(Throwable failure, String sources) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String uri = null;
            if (t instanceof NoSuchEndpointException e) {
                uri = e.getUri();
            } else if (t instanceof ResolveEndpointFailedException e && e.getMessage() != null
                       && e.getMessage().contains("No component found with scheme")) {
                uri = e.getUri();
            }
            if (uri == null && t instanceof IllegalArgumentException && t.getMessage() != null
                && t.getMessage().startsWith(NOT_FOUND)) {
                // KameletMain's resolver: "Cannot find component with name: x. Did you mean: y, z"
                String rest = t.getMessage().substring(NOT_FOUND.length());
                int end = rest.indexOf('.');
                uri = end > 0 ? rest.substring(0, end) : rest;
            }
            if (uri != null) {
                return explainScheme(scheme(uri), sources);
            }
        }
        return null;
    }

    /** The message for a route naming component {@code scheme}, which is neither bundled nor resolvable. */
    static String explainScheme(String scheme, String sources) {
        ComponentModel model = catalog().componentModel(scheme);
        if (model == null) {
            return "a route uses the component '" + scheme + "', which is no Camel component (not in the Camel "
                   + catalog().getCatalogVersion() + " catalog) and not on the class path: add the artifact that"
                   + " provides it to deltafunnel.dependencies (groupId:artifactId:version) or its jar to"
                   + " deltafunnel.lib-dir (looked in: " + sources + ")";
        }
        String artifact = model.getGroupId() + ":" + model.getArtifactId() + ":" + model.getVersion();
        return "a route uses the component '" + scheme + "', which the application does not bundle, and its artifact "
               + artifact + " could not be resolved from " + sources + ": provide " + artifact + " (and its"
               + " dependencies) in a repository of deltafunnel.repositories, put its jars in deltafunnel.lib-dir, or"
               + " make Maven Central reachable (see the download error above)";
    }

    static String scheme(String uri) {
        int colon = uri.indexOf(':');
        return (colon > 0 ? uri.substring(0, colon) : uri).toLowerCase(Locale.ROOT);
    }

    private static CamelCatalog catalog() {
        if (catalog == null) {
            catalog = new DefaultCamelCatalog();
        }
        return catalog;
    }

    /** The Camel version the application runs (and {@code camel-<name>} shorthands resolve to). */
    static String camelVersion() {
        return catalog().getCatalogVersion();
    }
}
