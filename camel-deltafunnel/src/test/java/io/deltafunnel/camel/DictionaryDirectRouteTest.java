package io.deltafunnel.camel;

/** {@link DictionaryRouteTest} with the direct TDS writer ({@code bulkEncoder=direct}, no fallback). */
class DictionaryDirectRouteTest extends DictionaryRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
