// SPDX-License-Identifier: Apache-2.0
#include "core/cel/derived_attribute.h"

#include "core/cel/interpreter.h"
#include "core/cel/program.h"

namespace drasim::cel {

namespace {

// The Go type valToDeviceAttribute (dynamic-resource-allocation/cel/compile.go) names in its
// "unsupported CEL return type" error, for the values a dyn expression can produce.
std::string goTypeName(const Value& v)
{
    switch (v.kind) {
    case Kind::Uint:
        return "uint64";
    case Kind::Double:
        return "float64";
    case Kind::Bytes:
        return "[]uint8";
    case Kind::Null:
        return "structpb.NullValue";
    default:
        return std::string(typeName(v));
    }
}

} // namespace

std::shared_ptr<const DerivedAttribute> DerivedAttribute::compile(
    std::string_view expression, bool listTypes, CompileError* error)
{
    auto program = compileProgram(expression, false, error, true,
        listTypes ? ResultRule::DerivedScalarOrList : ResultRule::DerivedScalar);
    if (!program)
        return nullptr;
    return std::make_shared<const DerivedAttribute>(std::move(program));
}

std::shared_ptr<const DerivedAttribute> DerivedAttribute::compileStored(
    std::string_view expression, CompileError* error)
{
    // Stored expressions keep list results acceptable even with DRAListTypeAttributes off.
    auto program = compileProgram(expression, true, error, true, ResultRule::DerivedScalarOrList);
    if (!program)
        return nullptr;
    return std::make_shared<const DerivedAttribute>(std::move(program));
}

DerivedAttribute::DerivedAttribute(std::shared_ptr<const Program> program)
    : m_program(std::move(program))
{ }

double DerivedAttribute::estimatedCost() const
{
    return m_program->estimatedCost();
}

DerivedValue DerivedAttribute::evaluate(const DeviceView& device) const
{
    DerivedValue out;
    const Value v = m_program->run(device, kRuntimeCostLimit);
    using T = api::DeviceAttribute::Type;
    switch (v.kind) {
    case Kind::Bool:
        out.value.type = T::Bool;
        out.value.boolValue = v.b;
        break;
    case Kind::Int:
        out.value.type = T::Int;
        out.value.intValue = v.i;
        break;
    case Kind::String:
        out.value.type = T::String;
        out.value.stringValue = std::string(v.str());
        break;
    case Kind::Semver:
        out.value.type = T::Version;
        out.value.stringValue = v.semverValue().toString();
        break;
    case Kind::Error:
        out.error = v.errorMessage();
        return out;
    case Kind::List:
        // Upstream turns a list into a list-typed attribute (DRAListTypeAttributes); drasim
        // refuses list-typed attributes, so it stops here rather than compare them some other way.
        out.error = "list-valued derived attributes are not supported by drasim";
        return out;
    default:
        out.error = "unsupported CEL return type: " + goTypeName(v);
        return out;
    }
    out.ok = true;
    return out;
}

} // namespace drasim::cel
