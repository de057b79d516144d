package dev.remotepath.s3;

/** The whole contract suite over S3 against Adobe S3Mock, in a network namespace of its own. */
class S3MockContractTest extends S3ContractTest {

    @Override
    S3TestStore newServer() throws Exception {
        return S3MockServer.start();
    }

    /** S3Mock runs on Tomcat, which answers 400 to an encoded backslash ({@code %5C}) in a path. */
    @Override
    protected boolean serverCanStore(String name) {
        return !name.contains("\\");
    }
}
