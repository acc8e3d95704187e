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

// The Go type of an element's Value() as valToDeviceAttribute's list errors print it (%T).
std::string goElementTypeName(const Value& v)
{
    switch (v.kind) {
    case Kind::Bool:
        return "bool";
    case Kind::Int:
        return "int64";
    case Kind::String:
        return "string";
    case Kind::Semver:
        return "semver.Version";
    default:
        return goTypeName(v);
    }
}

// A scalar attribute of the value's type; false for a type attributes do not have.
bool toAttribute(const Value& v, api::DeviceAttribute& out)
{
    using T = api::DeviceAttribute::Type;
    switch (v.kind) {
    case Kind::Bool:
        out.type = T::Bool;
        out.boolValue = v.b;
        return true;
    case Kind::Int:
        out.type = T::Int;
        out.intValue = v.i;
        return true;
    case Kind::String:
        out.type = T::String;
        out.stringValue = std::string(v.str());
        return true;
    case Kind::Semver:
        out.type = T::Version;
        out.stringValue = v.semverValue().toString();
        return true;
    default:
        return false;
    }
}

// valToDeviceAttribute's list branch: the first element's type is the list's; an empty list is
// an (empty) list of strings.
void toList(const ListData& items, DerivedValue& out)
{
    out.isList = true;
    for (size_t i = 0; i < items.size(); ++i) {
        api::DeviceAttribute a;
        if (i == 0 && !toAttribute(items[0], a)) {
            out.error = "unsupported list element type: " + goElementTypeName(items[0]);
            return;
        }
        if (i > 0 && (items[i].kind != items[0].kind || !toAttribute(items[i], a))) {
            static const char* const kWords[] = { "int", "bool", "string", "semver" };
            out.error = "expected list element at index " + std::to_string(i) + " to be "
                + kWords[static_cast<int>(out.list[0].type)] + ", got " + goElementTypeName(items[i]);
            return;
        }
        out.list.push_back(std::move(a));
    }
    out.ok = true;
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
    if (v.kind == Kind::Error)
        out.error = v.errorMessage();
    else if (v.kind == Kind::List)
        toList(v.listData(), out);
    else if (toAttribute(v, out.value))
        out.ok = true;
    else
        out.error = "unsupported CEL return type: " + goTypeName(v);
    return out;
}

} // namespace drasim::cel
