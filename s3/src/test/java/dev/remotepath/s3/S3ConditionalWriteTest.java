package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Create-only writes (CREATE_NEW, copies that must not replace) publish with
 * {@code If-None-Match: *}, so that of two writers only one wins; a store's refusal (412, or
 * 409 ConditionalRequestConflict) is a FileAlreadyExistsException; where the store may ignore the
 * header (s3proxy does), a HEAD checks first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class S3ConditionalWriteTest {

    /** "Operation If-None-Match" for each request sent. */
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final ExecutionInterceptor recorder = new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            sent.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + " "
                    + context.httpRequest().firstMatchingHeader("If-None-Match").orElse("-"));
        }
    };

    private TestS3Server server;

    @BeforeAll
    void start() throws Exception {
        server = new TestS3Server();
        server.createBucket("conditional");
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
    }

    private RemotePath bucket(java.util.function.Consumer<S3Options.Builder> adjust) throws IOException {
        return RemotePaths.get(URI.create("s3://conditional/"), server.options(b -> {
            b.clientCustomizer(c -> c.overrideConfiguration(o -> o.addExecutionInterceptor(recorder)));
            adjust.accept(b);
        }));
    }

    private List<String> sentOf(String operation) {
        return sent.stream().filter(s -> s.startsWith(operation + " ")).toList();
    }

    @Test
    void createNewCarriesIfNoneMatchAndAStoreThatIgnoresItIsCheckedFirst() throws Exception {
        RemotePath root = bucket(b -> b.partSize(S3Options.MIN_PART_SIZE).multipartThreshold(S3Options.MIN_PART_SIZE));
        try {
            sent.clear();
            try (OutputStream out = root.fileSystem().openWrite(root.resolve("new.txt"), WriteMode.CREATE_NEW)) {
                out.write("first".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(sentOf("PutObject")).containsExactly("PutObject *");
            assertThat(sentOf("HeadObject")).as("s3proxy ignores the header: a HEAD checks first").isNotEmpty();
            assertThatThrownBy(() -> root.fileSystem().openWrite(root.resolve("new.txt"), WriteMode.CREATE_NEW))
                    .isInstanceOf(FileAlreadyExistsException.class);
            assertThat(root.resolve("new.txt").readString()).isEqualTo("first");

            sent.clear();
            try (OutputStream out = root.fileSystem().openWrite(root.resolve("big.bin"), WriteMode.CREATE_NEW)) {
                out.write(new byte[S3Options.MIN_PART_SIZE + 1]);
            }
            assertThat(sentOf("CompleteMultipartUpload")).containsExactly("CompleteMultipartUpload *");

            sent.clear();
            root.resolve("plain.txt").writeString("replaceable");
            assertThat(sentOf("PutObject")).containsExactly("PutObject -");

            sent.clear();
            root.resolve("new.txt").copyTo(root.resolve("copy.txt"));
            assertThat(sentOf("CopyObject")).containsExactly("CopyObject *");
            assertThatThrownBy(() -> root.resolve("plain.txt").copyTo(root.resolve("copy.txt")))
                    .isInstanceOf(FileAlreadyExistsException.class);
            assertThat(root.resolve("copy.txt").readString()).isEqualTo("first");
        } finally {
            root.fileSystem().close();
        }
    }

    @Test
    void aStoreThatHonoursTheHeaderDecidesAloneWithoutAHead() throws Exception {
        // A store that refuses every conditional PUT, as one does when the key exists.
        HttpServer store = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        List<String> methods = new CopyOnWriteArrayList<>();
        store.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            methods.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            boolean conditional = exchange.getRequestHeaders().getFirst("If-None-Match") != null;
            String path = exchange.getRequestURI().getPath();
            int status;
            String body;
            if (exchange.getRequestMethod().equals("PUT") && conditional) {
                boolean conflict = path.endsWith("/race.txt");
                status = conflict ? 409 : 412;
                body = conflict ? "<Error><Code>ConditionalRequestConflict</Code><Message>A conflicting conditional "
                        + "operation is in progress</Message></Error>"
                        : "<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you "
                        + "specified did not hold</Message></Error>";
            } else if (exchange.getRequestMethod().equals("GET") && exchange.getRequestURI().getQuery() != null
                    && exchange.getRequestURI().getQuery().contains("list-type=2")) {
                status = 200; // an empty listing
                body = "<ListBucketResult><Name>honours</Name><KeyCount>0</KeyCount><MaxKeys>1</MaxKeys>"
                        + "<IsTruncated>false</IsTruncated></ListBucketResult>";
            } else {
                status = 404; // nothing else exists here
                body = "<Error><Code>NoSuchKey</Code><Message>no</Message></Error>";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/xml");
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                if (!head) {
                    out.write(bytes);
                }
            }
        });
        store.start();
        S3Options o = S3Options.builder().endpoint(URI.create("http://127.0.0.1:" + store.getAddress().getPort()))
                .pathStyle(true).region("us-east-1").credentials(S3Credentials.of("k", "s")).maxRetries(0)
                .conditionalWrites(true).build();
        RemotePath root = RemotePaths.get(URI.create("s3://honours/"), o);
        try {
            assertThat(o.conditionalWrites()).isTrue();
            assertThatThrownBy(() -> {
                try (OutputStream out = root.fileSystem().openWrite(root.resolve("taken.txt"), WriteMode.CREATE_NEW)) {
                    out.write('x');
                }
            }).isInstanceOf(FileAlreadyExistsException.class).hasMessageContaining("s3://honours/taken.txt");
            assertThat(methods).doesNotContain("HEAD /honours/taken.txt").contains("PUT /honours/taken.txt");
            assertThatThrownBy(() -> {
                try (OutputStream out = root.fileSystem().openWrite(root.resolve("race.txt"), WriteMode.CREATE_NEW)) {
                    out.write('x');
                }
            }).isInstanceOf(FileAlreadyExistsException.class).hasMessageContaining("another writer");
        } finally {
            root.fileSystem().close();
            store.stop(0);
        }
        assertThat(S3Options.builder().build().conditionalWrites()).as("AWS").isTrue();
        assertThat(S3Options.builder().endpoint(URI.create("http://127.0.0.1:9000")).build().conditionalWrites())
                .as("another store").isFalse();
        assertThat(S3Options.builder().build().conditionalCopies()).as("AWS copies").isTrue();
        assertThat(S3Options.builder().endpoint(URI.create("http://127.0.0.1:9000")).conditionalWrites(true).build()
                .conditionalCopies()).as("a store trusted with conditional PUTs, not with copies").isFalse();
    }
}
