// SPDX-License-Identifier: Apache-2.0
#pragma once

// A derived attribute's expression (DRADerivedAttributes, KEP-6080): compiled once, evaluated per
// candidate device to a value of an attribute type that claim constraints compare.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/resource_v1.h"
#include "core/cel/cel.h"

namespace drasim::cel {

/// The value one device gives the expression, or the error that aborts the allocation.
struct DerivedValue
{
    bool ok = false;
    api::DeviceAttribute value;
    /// The expression gave a list (allowed with DRAListTypeAttributes): its elements, all of one
    /// type, are in `list` and `value` is unused.
    bool isList = false;
    std::vector<api::DeviceAttribute> list;
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
    /// Evaluates against one device, converting the result as valToDeviceAttribute
    /// (dynamic-resource-allocation/cel/compile.go) does: a scalar attribute, or a list whose
    /// elements share the first one's attribute type. Anything else (a double, null, a list of
    /// mixed or other types) is an error like a CEL runtime error.
    DerivedValue evaluate(const DeviceView& device) const;

    explicit DerivedAttribute(std::shared_ptr<const Program> program);

private:
    std::shared_ptr<const Program> m_program;
};

} // namespace drasim::cel
