// SPDX-License-Identifier: Apache-2.0
#include "core/common/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace drasim {

bool writeFileAtomically(const std::string& path, std::string_view content, std::string* error)
{
    auto fail = [&](const std::string& what) {
        if (error)
            *error = path + ": " + what + ": " + std::strerror(errno);
        return false;
    };
    std::string tmp = path + ".tmp-XXXXXX";
    int fd = mkstemp(tmp.data());
    if (fd < 0)
        return fail("cannot create temporary file");
    const char* p = content.data();
    size_t left = content.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int saved = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            errno = saved;
            return fail("cannot write");
        }
        p += n;
        left -= size_t(n);
    }
    // fsync before rename: otherwise a crash can leave the renamed file empty on some filesystems.
    if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0) {
        int saved = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        errno = saved;
        return fail("cannot flush");
    }
    ::close(fd);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        int saved = errno;
        ::unlink(tmp.c_str());
        errno = saved;
        return fail("cannot replace");
    }
    return true;
}

} // namespace drasim
