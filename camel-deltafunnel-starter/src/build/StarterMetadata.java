import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.camel.util.StringHelper;
import org.apache.camel.util.json.JsonArray;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;

/**
 * A build step of camel-deltafunnel-starter (process-resources, before the compiler runs Spring Boot's configuration
 * processor): writes {@code META-INF/additional-spring-configuration-metadata.json} from the components' catalog JSON
 * (camel-deltafunnel's {@code META-INF/io/deltafunnel/camel/<scheme>.json}, on the classpath), one entry per
 * component option with the catalog's description, type and default. The processor merges it into the generated
 * {@code spring-configuration-metadata.json}, so the starter's property descriptions are the components' own, written
 * once in their {@code @Metadata}/{@code @UriParam} annotations; the {@code *ComponentConfiguration} fields carry no
 * Javadoc. {@code DeltaFunnelStarterMetadataTest} checks the result.
 *
 * <p>Run as a Java source-file program: {@code java -cp <compile classpath> StarterMetadata.java <output file>
 * <scheme>=<configuration class>...}.
 */
public final class StarterMetadata {

    private StarterMetadata() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        JsonArray properties = new JsonArray();
        for (int i = 1; i < args.length; i++) {
            String[] pair = args[i].split("=", 2);
            String scheme = pair[0];
            String resource = "META-INF/io/deltafunnel/camel/" + scheme + ".json";
            var in = StarterMetadata.class.getClassLoader().getResourceAsStream(resource);
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the classpath (camel-deltafunnel's catalog)");
            }
            JsonObject catalog;
            try (in) {
                catalog = (JsonObject) Jsoner.deserialize(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            JsonObject options = catalog.getMap("componentProperties");
            List<String> names = new ArrayList<>(options.keySet());
            for (String name : names) {
                Map<?, ?> option = (Map<?, ?>) options.get(name);
                JsonObject p = new JsonObject();
                p.put("name", "camel.component." + scheme + "." + StringHelper.camelCaseToDash(name));
                String type = boxed((String) option.get("javaType"));
                p.put("type", type);
                p.put("sourceType", pair[1]);
                p.put("description", option.get("description"));
                Object dflt = option.get("defaultValue");
                if (dflt != null) {
                    p.put("defaultValue", typed(type, dflt));
                }
                properties.add(p);
            }
        }
        JsonObject metadata = new JsonObject();
        metadata.put("properties", properties);
        Files.createDirectories(out.getParent());
        Files.writeString(out, Jsoner.prettyPrint(metadata.toJson()) + "\n", StandardCharsets.UTF_8);
        System.out.println("StarterMetadata: " + properties.size() + " component option(s) written to " + out);
    }

    private static String boxed(String javaType) {
        return switch (javaType) {
            case "boolean" -> "java.lang.Boolean";
            case "int" -> "java.lang.Integer";
            case "long" -> "java.lang.Long";
            case "double" -> "java.lang.Double";
            default -> javaType;
        };
    }

    private static Object typed(String type, Object value) {
        String text = value.toString();
        return switch (type) {
            case "java.lang.Boolean" -> Boolean.valueOf(text);
            case "java.lang.Integer" -> Integer.valueOf(text);
            case "java.lang.Long" -> Long.valueOf(text);
            case "java.lang.Double" -> Double.valueOf(text);
            default -> text;
        };
    }
}
