import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;
import org.apache.camel.spi.UriPath;
import org.apache.camel.util.json.Jsoner;

/**
 * A build step of camel-deltafunnel (process-classes, right after camel-component-maven-plugin's {@code generate}):
 * puts each option's description into the generated catalog JSON exactly as its annotation states it.
 *
 * <p>The plugin passes every description through its Javadoc sanitizer, which keeps letters, digits and
 * {@code .,-='/\!&%():;#$} and braces only, so that {@code [my schema].[t]} became "my schema.t" and {@code <view>} or
 * {@code "x"} vanished. This step reads the {@code description} of every {@code @UriPath}, {@code @UriParam} and
 * {@code @Metadata} in this project's endpoint, configuration, component and header classes (retained at run
 * time) and replaces the sanitized text with it. It only restores characters: when the sanitized text does not have
 * the same letters and digits as the annotation's, the build fails naming the option. Camel's own options are left
 * as the plugin wrote them.
 *
 * <p>Run as a Java source-file program: {@code java -cp <runtime classpath> CatalogDescriptions.java <classes dir>
 * <catalog root>...}; each root holds {@code META-INF/io/deltafunnel/camel/<scheme>.json}.
 */
public final class CatalogDescriptions {

    private static final String PROJECT = "io.deltafunnel.";
    /** The characters besides letters and digits that the plugin's sanitizer keeps. */
    private static final String KEPT = ".,-=\'/\\!&%():;#${}";
    private static final Pattern OPTION_LINE = Pattern.compile("^    \"([^\"]+)\": \\{ .*\"description\": \"((?:[^\"\\\\]|\\\\.)*)\"");

    private CatalogDescriptions() {
    }

    public static void main(String[] args) throws Exception {
        Path classes = Path.of(args[0]);
        int fixed = 0;
        for (Class<?> endpoint : endpointClasses(classes)) {
            UriEndpoint uri = endpoint.getAnnotation(UriEndpoint.class);
            Map<String, String> properties = new LinkedHashMap<>();
            options(endpoint, properties);
            Map<String, String> headers = new LinkedHashMap<>();
            headers(uri.headersClass(), headers);
            for (int i = 1; i < args.length; i++) {
                Path json = Path.of(args[i], "META-INF/io/deltafunnel/camel", uri.scheme() + ".json");
                if (Files.isRegularFile(json)) {
                    Map<String, String> component = new LinkedHashMap<>();
                    String componentClass = componentClass(json);
                    if (componentClass != null) {
                        options(Class.forName(componentClass, false, CatalogDescriptions.class.getClassLoader()),
                                component);
                    }
                    fixed += fix(json, Map.of("properties", properties, "componentProperties", component,
                            "headers", headers));
                }
            }
        }
        System.out.println("CatalogDescriptions: " + fixed + " description(s) restored from the annotations");
    }

    /** The classes under {@code classes} annotated {@code @UriEndpoint}. */
    private static List<Class<?>> endpointClasses(Path classes) throws IOException {
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().contains("$"))
                    .map(f -> classes.relativize(f).toString().replace('\\', '/'))
                    .filter(n -> n.startsWith(PROJECT.replace('.', '/')))
                    .map(n -> load(n.substring(0, n.length() - ".class".length()).replace('/', '.')))
                    .filter(c -> c != null && c.isAnnotationPresent(UriEndpoint.class))
                    .<Class<?>>map(c -> c).toList();
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, CatalogDescriptions.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** The descriptions of the options declared in this project's part of {@code type}'s hierarchy. */
    private static void options(Class<?> type, Map<String, String> into) {
        for (Class<?> c = type; c != null && c.getName().startsWith(PROJECT); c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                UriPath path = f.getAnnotation(UriPath.class);
                UriParam param = f.getAnnotation(UriParam.class);
                Metadata metadata = f.getAnnotation(Metadata.class);
                if (param != null && f.getType().isAnnotationPresent(UriParams.class)) {
                    options(f.getType(), into); // a configuration class: its options are the endpoint's
                    continue;
                }
                String name = path != null && !path.name().isEmpty() ? path.name()
                        : param != null && !param.name().isEmpty() ? param.name() : f.getName();
                String description = first(path == null ? "" : path.description(),
                        param == null ? "" : param.description(), metadata == null ? "" : metadata.description());
                if (!description.isEmpty()) {
                    into.put(name, description);
                }
            }
        }
    }

    /** Header descriptions: {@code @Metadata} on the constants of the headers class, keyed by the header name. */
    private static void headers(Class<?> type, Map<String, String> into) throws IllegalAccessException {
        if (type == null || type == void.class || !type.getName().startsWith(PROJECT)) {
            return;
        }
        for (Field f : type.getDeclaredFields()) {
            Metadata metadata = f.getAnnotation(Metadata.class);
            if (metadata != null && !metadata.description().isEmpty() && Modifier.isStatic(f.getModifiers())
                    && f.getType() == String.class) {
                f.setAccessible(true);
                into.put((String) f.get(null), metadata.description());
            }
        }
    }

    private static String first(String... candidates) {
        for (String s : candidates) {
            if (s != null && !s.isEmpty()) {
                return s;
            }
        }
        return "";
    }

    private static String componentClass(Path json) throws IOException {
        Matcher m = Pattern.compile("\"component\": \\{.*?\"javaType\": \"([^\"]+)\"", Pattern.DOTALL)
                .matcher(Files.readString(json));
        return m.find() ? m.group(1) : null;
    }

    /** Rewrites the descriptions of {@code json} line by line (the plugin writes one option per line). */
    private static int fix(Path json, Map<String, Map<String, String>> sections) throws IOException {
        List<String> lines = Files.readAllLines(json, StandardCharsets.UTF_8);
        Map<String, String> section = Map.of();
        int fixed = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher top = Pattern.compile("^  \"(\\w+)\": \\{").matcher(line);
            if (top.find()) {
                section = sections.getOrDefault(top.group(1), Map.of());
                continue;
            }
            Matcher m = OPTION_LINE.matcher(line);
            if (!m.find() || !section.containsKey(m.group(1))) {
                continue;
            }
            String annotated = section.get(m.group(1));
            String written = m.group(2);
            String plugin = unescape(written);
            String sanitized = sanitized(annotated);
            if (!plugin.startsWith(sanitized)) {
                throw new IllegalStateException(json + ": the catalog's description of '" + m.group(1)
                        + "' is not the annotation's as camel-component-maven-plugin sanitizes it; catalog: \""
                        + plugin + "\", annotation: \"" + annotated + "\"");
            }
            // keep what the plugin appends (e.g. "This is a multi-value option with prefix: delta.")
            String restored = Jsoner.escape(annotated + plugin.substring(sanitized.length()));
            if (restored.equals(written)) {
                continue;
            }
            lines.set(i, line.substring(0, m.start(2)) + restored + line.substring(m.end(2)));
            fixed++;
        }
        if (fixed > 0) {
            Files.write(json, lines, StandardCharsets.UTF_8);
        }
        return fixed;
    }

    /**
     * What camel-component-maven-plugin's Javadoc sanitizer makes of an annotation's description (camel-tooling-util
     * {@code JavadocHelper.sanitizeDescription}): HTML-like tags removed, characters other than letters, digits and
     * {@link #KEPT} dropped, whitespace collapsed.
     */
    static String sanitized(String description) {
        String text = description.replaceAll("<.*?>", "");
        StringBuilder b = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (Character.isJavaIdentifierPart(c) || KEPT.indexOf(c) >= 0) {
                b.append(c);
            } else if (Character.isWhitespace(c)) {
                b.append(' ');
            }
        }
        return b.toString().replaceAll("\\s+", " ").trim();
    }

    private static String unescape(String jsonText) {
        try {
            return (String) Jsoner.deserialize("\"" + jsonText + "\"");
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the JSON string " + jsonText, e);
        }
    }
}
