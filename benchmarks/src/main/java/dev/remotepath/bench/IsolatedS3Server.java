package dev.remotepath.bench;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * s3proxy (jclouds' in-memory blob store) in this process but in a class loader of its own:
 * its Jetty 11 cannot share a class path with the http backend's Jetty 12. The class path is
 * the s3 module's test class path, written by {@code benchmarks/run} to the file named by the
 * system property {@code bench.s3proxy.classpath}.
 */
final class IsolatedS3Server implements AutoCloseable {

    static final String ACCESS_KEY = "rp-bench-access";
    static final String SECRET_KEY = "rp-bench-secret-0123456789";

    private final URLClassLoader loader;
    private final Object proxy;
    private final Object context;
    private final Object blobStore;
    final URI endpoint;

    IsolatedS3Server() throws Exception {
        String listFile = System.getProperty("bench.s3proxy.classpath");
        if (listFile == null || !Files.isRegularFile(Path.of(listFile))) {
            throw new IOException("s3proxy's class path is unknown: run through benchmarks/run, which sets "
                    + "-Dbench.s3proxy.classpath");
        }
        List<URL> urls = new ArrayList<>();
        // s3proxy logs every request at DEBUG without a logback configuration of its own.
        Path config = Files.createTempDirectory("rp-s3proxy-log");
        Files.writeString(config.resolve("logback.xml"), "<configuration><root level=\"ERROR\"/></configuration>");
        config.toFile().deleteOnExit();
        config.resolve("logback.xml").toFile().deleteOnExit();
        urls.add(config.toUri().toURL());
        for (String entry : Files.readString(Path.of(listFile)).trim().split(java.io.File.pathSeparator)) {
            if (!entry.isBlank()) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        loader = new URLClassLoader("s3proxy", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(loader);
        try {
            Class<?> contextBuilder = loader.loadClass("org.jclouds.ContextBuilder");
            Class<?> blobStoreContext = loader.loadClass("org.jclouds.blobstore.BlobStoreContext");
            Object builder = contextBuilder.getMethod("newBuilder", String.class).invoke(null, "transient");
            builder = contextBuilder.getMethod("credentials", String.class, String.class).invoke(builder, "id", "cred");
            builder = contextBuilder.getMethod("overrides", Properties.class).invoke(builder, new Properties());
            context = contextBuilder.getMethod("build", Class.class).invoke(builder, blobStoreContext);
            blobStore = blobStoreContext.getMethod("getBlobStore").invoke(context);

            Class<?> s3proxy = loader.loadClass("org.gaul.s3proxy.S3Proxy");
            Class<?> proxyBuilder = loader.loadClass("org.gaul.s3proxy.S3Proxy$Builder");
            Class<?> authType = loader.loadClass("org.gaul.s3proxy.AuthenticationType");
            Class<?> blobStoreType = loader.loadClass("org.jclouds.blobstore.BlobStore");
            Object b = s3proxy.getMethod("builder").invoke(null);
            proxyBuilder.getMethod("blobStore", blobStoreType).invoke(b, blobStore);
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object v2v4 = Enum.valueOf((Class) authType, "AWS_V2_OR_V4");
            proxyBuilder.getMethod("awsAuthentication", authType, String.class, String.class).invoke(b, v2v4, ACCESS_KEY,
                    SECRET_KEY);
            proxyBuilder.getMethod("endpoint", URI.class).invoke(b, URI.create("http://127.0.0.1:0"));
            proxyBuilder.getMethod("ignoreUnknownHeaders", boolean.class).invoke(b, true);
            proxy = proxyBuilder.getMethod("build").invoke(b);
            s3proxy.getMethod("start").invoke(proxy);
            Method state = s3proxy.getMethod("getState");
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!"STARTED".equals(state.invoke(proxy))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("s3proxy did not start");
                }
                Thread.sleep(5);
            }
            endpoint = URI.create("http://127.0.0.1:" + s3proxy.getMethod("getPort").invoke(proxy));
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    void createBucket(String name) throws Exception {
        Class<?> location = loader.loadClass("org.jclouds.domain.Location");
        blobStore.getClass().getMethod("createContainerInLocation", location, String.class).invoke(blobStore, null, name);
    }

    @Override
    public void close() throws Exception {
        proxy.getClass().getMethod("stop").invoke(proxy);
        context.getClass().getMethod("close").invoke(context);
        loader.close();
    }
}
