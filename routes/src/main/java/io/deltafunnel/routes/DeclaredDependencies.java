package io.deltafunnel.routes;

import org.apache.camel.CamelContext;
import org.apache.camel.main.download.DependencyDownloader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves {@code deltafunnel.dependencies} at start, through KameletMain's downloader (so the jars join the
 * application's class loader and their type converters and components are found), and fails the start naming the
 * first artifact that could not be resolved.
 */
final class DeclaredDependencies {

    private static final Logger LOG = LoggerFactory.getLogger(DeclaredDependencies.class);

    private final ResolutionSettings resolution;
    private final PresentArtifacts present;

    DeclaredDependencies(ResolutionSettings resolution, PresentArtifacts present) {
        this.resolution = resolution;
        this.present = present;
    }

    /** @throws IllegalStateException naming the artifact that could not be resolved and where it was looked for */
    void resolve(CamelContext context) {
        if (resolution.dependencies().isEmpty()) {
            return;
        }
        DependencyDownloader downloader = context.hasService(DependencyDownloader.class);
        if (downloader == null) {
            throw new IllegalStateException("deltafunnel.dependencies is set, but the dependency downloader is off");
        }
        for (String gav : resolution.dependencies()) {
            String[] p = gav.split(":");
            if (present.contains(p[0], p[1], p[2]) || downloader.alreadyOnClasspath(p[0], p[1], p[2])) {
                LOG.debug("deltafunnel.dependencies: {} is already in the application", gav);
                continue;
            }
            LOG.info("deltafunnel.dependencies: resolving {}", gav);
            downloader.downloadDependency(p[0], p[1], p[2]);
            // the downloader logs a failure and carries on; what it resolved is on its class loader now
            if (!downloader.alreadyOnClasspath(p[0], p[1], p[2])) {
                throw new IllegalStateException("deltafunnel.dependencies: the artifact " + gav + " could not be"
                        + " resolved from " + resolution.describeSources() + ": provide it (and its dependencies)"
                        + " there, or its jars in deltafunnel.lib-dir (see the download error above)");
            }
        }
    }
}
