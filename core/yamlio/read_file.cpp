// SPDX-License-Identifier: Apache-2.0
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sys/stat.h>

#include "core/yamlio/yaml_tree.h"

namespace drasim::yamlio {

namespace {

std::string tooLarge(size_t size, size_t maxBytes)
{
    return "file is " + std::to_string(size) + " bytes, more than the limit of " + std::to_string(maxBytes)
        + " bytes";
}

} // namespace

bool readFile(const std::string& path, std::string& out, std::string* error, size_t maxBytes)
{
    auto fail = [&](std::string message) {
        if (error)
            *error = std::move(message);
        return false;
    };
    out.clear();
    if (path == "-") {
        // stdin has no size up front: read in chunks and stop at the limit.
        char buffer[1 << 16];
        while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
            out.append(buffer, size_t(std::cin.gcount()));
            if (out.size() > maxBytes)
                return fail(tooLarge(out.size(), maxBytes));
        }
        return true;
    }
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0)
        return fail(std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        return fail("is a directory");
    if (S_ISREG(st.st_mode) && size_t(st.st_size) > maxBytes)
        return fail(tooLarge(size_t(st.st_size), maxBytes));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(std::strerror(errno));
    if (S_ISREG(st.st_mode)) {
        out.resize(size_t(st.st_size));
        in.read(out.data(), std::streamsize(out.size()));
        out.resize(size_t(in.gcount()));
    } else {
        out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if (out.size() > maxBytes)
            return fail(tooLarge(out.size(), maxBytes));
    }
    return true;
}

} // namespace drasim::yamlio
