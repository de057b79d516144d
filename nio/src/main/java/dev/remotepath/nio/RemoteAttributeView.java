package dev.remotepath.nio;

import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * One path's attribute view, as the basic, owner or POSIX view it was asked as: attributes read
 * through the provider (a listed path's stat reused), the modification time and permissions set
 * on the path itself, never through a link (the SPI's promise); owners and groups read, never set.
 */
final class RemoteAttributeView implements PosixFileAttributeView {

    private final RemoteNioProvider provider;
    private final Path path;
    private final String name;
    private final LinkOption[] options;

    RemoteAttributeView(RemoteNioProvider provider, Path path, String name, LinkOption... options) {
        this.provider = provider;
        this.path = path;
        this.name = name;
        this.options = options.clone();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PosixFileAttributes readAttributes() throws IOException {
        // RemoteAttributes are POSIX attributes; asked as basic ones they need no permissions.
        Class<? extends BasicFileAttributes> asked = name.equals("posix") ? PosixFileAttributes.class
                : BasicFileAttributes.class;
        return (PosixFileAttributes) provider.readAttributes(path, asked, options);
    }

    @Override
    public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) throws IOException {
        if (lastModifiedTime != null) {
            RemoteNioProvider.remote(path).setLastModifiedTime(lastModifiedTime.toInstant());
        }
    }

    @Override
    public void setPermissions(Set<PosixFilePermission> perms) throws IOException {
        RemoteNioProvider.remote(path).setPermissions(perms);
    }

    @Override
    public UserPrincipal getOwner() throws IOException {
        return provider.readAttributes(path, PosixFileAttributes.class, options).owner();
    }

    @Override
    public void setOwner(UserPrincipal owner) {
        throw new UnsupportedOperationException("RemotePath does not set owners: " + path);
    }

    @Override
    public void setGroup(GroupPrincipal group) {
        throw new UnsupportedOperationException("RemotePath does not set groups: " + path);
    }
}
