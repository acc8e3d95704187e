// SPDX-License-Identifier: Apache-2.0
#pragma once

// A derived attribute's expression (DRADerivedAttributes, KEP-6080): compiled once, evaluated per
// candidate device to a value of an attribute type that claim constraints compare.

#include <memory>
#include <string>
#include <string_view>

#include "core/api/resource_v1.h"
#include "core/cel/cel.h"

namespace drasim::cel {

/// The value one device gives the expression, or the error that aborts the allocation.
struct DerivedValue
{
    bool ok = false;
    api::DeviceAttribute value;
    std::string error; ///< when !ok: the CEL runtime error, e.g. "no such key: numa"
};

class DerivedAttribute
{
public:
    /// As the API server compiles a new expression (validateCELExpression with derivedAttribute
    /// set): the result type must be a scalar attribute type, or a list of one with `listTypes`
    /// (DRAListTypeAttributes); estimated cost <= 1,000,000.
    static std::shared_ptr<const DerivedAttribute> compile(
        std::string_view expression, bool listTypes, CompileError* error);
    /// As the scheduler compiles a stored one: lists accepted, no cost or length limit.
    static std::shared_ptr<const DerivedAttribute> compileStored(
        std::string_view expression, CompileError* error);

    /// The estimated worst-case cost, which the API server also sums over a claim.
    double estimatedCost() const;
    /// Evaluates against one device. A value that is no scalar attribute (a list, which drasim
    /// does not model, a double, null, ...) is an error like a CEL runtime error.
    DerivedValue evaluate(const DeviceView& device) const;

    explicit DerivedAttribute(std::shared_ptr<const Program> program);

private:
    std::shared_ptr<const Program> m_program;
};

} // namespace drasim::cel
