package io.deltafunnel.routes;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.camel.CamelContext;
import org.apache.camel.Component;
import org.apache.camel.impl.engine.DefaultComponentResolver;
import org.apache.camel.main.KameletMain;
import org.apache.camel.main.download.CamelCustomClassLoader;
import org.apache.camel.main.download.DependencyDownloaderClassLoader;
import org.apache.camel.main.util.VersionHelper;

/**
 * Camel's {@link KameletMain} (the runtime of {@code camel run}: a component, data format or language a route names
 * and the application does not bundle is resolved from Maven repositories at start), set up from
 * {@link ResolutionSettings}: the repositories asked, Maven Central or not, the jars of {@code deltafunnel.lib-dir}
 * on the class path, and the {@link PresentArtifacts} (bundled and lib-dir) registered as already there, so that the
 * built-in job and bundled components never download anything.
 */
final class DeltaFunnelMain extends KameletMain {

    private final ResolutionSettings resolution;
    private final PresentArtifacts present;
    private DependencyDownloaderClassLoader loader;

    DeltaFunnelMain(ResolutionSettings resolution) {
        super("deltafunnel.runtime");
        this.resolution = resolution;
        this.present = PresentArtifacts.of(DeltaFunnelMain.class.getClassLoader(), resolution.libDir());
        setProfile("prod");
        String bundled = BundledRepository.extract(MissingComponents.camelVersion());
        String configured = resolution.repositoriesList();
        setRepositories(bundled == null ? configured : configured == null ? bundled : bundled + "," + configured);
        setMavenCentralEnabled(resolution.mavenCentral());
        setMavenApacheSnapshotEnabled(false);
        if (!resolution.mavenSettings().isBlank()) {
            setMavenSettings(resolution.mavenSettings());
        }
    }

    /** What is already there (bundled and lib-dir). */
    PresentArtifacts present() {
        return present;
    }

    ResolutionSettings resolution() {
        return resolution;
    }

    /**
     * KameletMain's context, less the embedded HTTP server that KameletMain starts on port 8080 when anything
     * resolves {@code platform-http} (Micrometer does): that component is resolved as camel-main does, so the HTTP
     * server stays {@code camel.server.*} / {@code camel.management.*} configuration as before.
     */
    @Override
    protected CamelContext createCamelContext() {
        CamelContext context = super.createCamelContext();
        try {
            Component platformHttp = new DefaultComponentResolver().resolveComponent("platform-http", context);
            if (platformHttp != null) {
                context.addComponent("platform-http", platformHttp);
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot set up the platform-http component", e);
        }
        return context;
    }

    @Override
    protected ClassLoader createApplicationContextClassLoader(CamelContext camelContext) {
        if (loader == null) {
            PresentArtifactsClassLoader cl = new PresentArtifactsClassLoader(
                    new CamelCustomClassLoader(DeltaFunnelMain.class.getClassLoader(), camelContext), present);
            for (Path jar : present.libJars()) {
                cl.addFile(jar.toFile());
            }
            loader = cl;
        }
        return loader;
    }

    /**
     * The downloader's class loader. KameletMain's downloader takes an artifact as present when the class loader's
     * URLs hold its jar in Maven layout ({@code g/a/v/a-v.jar}); the bundled artifacts have no such jar (they are
     * inside the application's one jar), so {@link #getURLs()} also names them, under a base that exists nowhere.
     * Classes are loaded from the real URLs only (URLClassLoader never loads through {@code getURLs()}).
     */
    static final class PresentArtifactsClassLoader extends DependencyDownloaderClassLoader {
        /** The base of the names of bundled artifacts: no such directory exists. */
        static final String BASE = "file:/deltafunnel-bundled-artifacts/";

        /** Apache's Kamelet catalog (groupId:artifactId). */
        static final String KAMELET_CATALOG = "org.apache.camel.kamelets:camel-kamelets";

        private final URL[] names;

        PresentArtifactsClassLoader(ClassLoader parent, PresentArtifacts present) {
            super(parent);
            List<URL> urls = new ArrayList<>();
            List<String> gavs = new ArrayList<>(present.gavs());
            // Apache's Kamelet catalog, which KameletMain fetches at start: the application's Kamelets are on its
            // class path, and a start must not depend on a repository (add it with deltafunnel.dependencies)
            gavs.add(KAMELET_CATALOG + ":" + VersionHelper.extractKameletsVersion());
            for (String gav : gavs) {
                String[] p = gav.split(":");
                String path = (p[0] + "/" + p[1]).replace('.', '/') + "/" + p[2] + "/" + p[1] + "-" + p[2] + ".jar";
                try {
                    urls.add(new URL(BASE + path));
                } catch (MalformedURLException e) {
                    throw new IllegalArgumentException("bad artifact " + gav, e);
                }
            }
            names = urls.toArray(URL[]::new);
        }

        @Override
        public URL[] getURLs() {
            URL[] real = super.getURLs();
            URL[] all = Arrays.copyOf(real, real.length + names.length);
            System.arraycopy(names, 0, all, real.length, names.length);
            return all;
        }

        @Override
        public List<String> getDownloaded() {
            return Arrays.stream(super.getURLs()).map(u -> new File(u.getFile()).getName()).toList();
        }
    }
}
