#include "cli/case_output.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/case_json.h"
#include "core/codec.h"
#include "core/float16.h"
#include "core/npy.h"
#include "core/status.h"

namespace npuconf {
namespace {

constexpr int64_t kMaxPrintedElems = 64;

const char* CallResultName(int32_t result) {
  switch (result) {
    case NPUCONF_CALL_ANSWERED:
      return "answered";
    case NPUCONF_CALL_UNCLAIMED:
      return "unclaimed";
    case NPUCONF_CALL_BAD_CASE:
      return "bad_case";
    default:
      return "invalid";
  }
}

// Element e of a tensor as text (INT4 excluded: its nibble order is the
// routine's): floats to 9 digits, integers exactly in their own type; an
// element whose bytes are still what the runner put there before the call
// (`before`, the sentinel fill) is "unwritten". PrintOutput passes `before`
// only for an output the port left wholly as it was: one element equal to the
// fill in a written output may be a value the port wrote (int8 -51 is 0xCD).
std::string Element(std::span<const uint8_t> data, std::span<const uint8_t> before, DType dtype,
                    int64_t e) {
  const size_t width = static_cast<size_t>(Bits(dtype) / 8);
  const size_t at = static_cast<size_t>(e) * width;
  const uint8_t* p = data.data() + at;
  if (at + width <= before.size() && std::equal(p, p + width, before.data() + at) &&
      std::all_of(p, p + width, [](uint8_t b) { return b == kSentinelByte; }))
    return "unwritten";
  auto read = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  std::ostringstream out;
  out.precision(9);
  switch (dtype) {
    case DType::kFloat16:
      out << static_cast<float>(HalfFromBits(read(uint16_t{})));
      break;
    case DType::kBf16:
      out << static_cast<float>(BFloat16FromBits(read(uint16_t{})));
      break;
    case DType::kFloat:
      out << read(float{});
      break;
    case DType::kInt8:
      out << static_cast<int>(read(int8_t{}));
      break;
    case DType::kInt16:
      out << read(int16_t{});
      break;
    case DType::kInt32:
      out << read(int32_t{});
      break;
    case DType::kInt64:
      out << read(int64_t{});
      break;
    case DType::kUint64:
      out << read(uint64_t{});
      break;
    default:
      out << static_cast<int>(read(uint8_t{}));
      break;
  }
  return out.str();
}

// The elements an output holds: its reported dims when they fit the buffer,
// else its capacity in whole elements.
Shape ShownDims(const OutputResult& o, DType dtype) {
  const uint64_t capacity = o.buffer ? o.buffer->capacity_bytes() : 0;
  if (o.rank >= 0 && o.rank <= NPUCONF_MAX_RANK) {
    auto elems = NumElements(o.dims);
    auto bytes = elems ? BytesForElems(dtype, static_cast<uint64_t>(*elems)) : std::nullopt;
    if (bytes && *bytes <= capacity) return o.dims;
  }
  return {static_cast<int64_t>(capacity * 8 / static_cast<uint64_t>(Bits(dtype)))};
}

void Nested(std::span<const uint8_t> data, std::span<const uint8_t> before, DType dtype,
            const Shape& dims, size_t axis, int64_t* e, std::ostream& out) {
  if (axis == dims.size()) {
    out << Element(data, before, dtype, (*e)++);
    return;
  }
  out << "[";
  for (int64_t i = 0; i < dims[axis]; ++i) {
    if (i) out << ", ";
    Nested(data, before, dtype, dims, axis + 1, e, out);
  }
  out << "]";
}

std::string Hex(std::span<const uint8_t> bytes, size_t max_bytes) {
  std::ostringstream out;
  out << std::hex;
  for (size_t i = 0; i < std::min(bytes.size(), max_bytes); ++i) {
    out << (i ? " " : "") << (bytes[i] < 16 ? "0" : "") << static_cast<int>(bytes[i]);
  }
  if (bytes.size() > max_bytes) out << " ...";
  return out.str();
}

// In a written output, the elements whose bytes still equal the runner's fill:
// left by the port, or written with that value; the printout above shows
// their values, this line says which they are.
void PrintFillNote(std::span<const uint8_t> data, std::span<const uint8_t> handed, DType dtype,
                   bool untouched, std::ostream& out) {
  const size_t width = static_cast<size_t>(Bits(dtype) / 8);
  if (untouched || width == 0) return;
  constexpr int64_t kMaxNamed = 8;
  std::vector<int64_t> at;
  int64_t count = 0;
  for (size_t b = 0; b + width <= data.size() && b + width <= handed.size(); b += width) {
    const uint8_t* p = data.data() + b;
    if (!std::equal(p, p + width, handed.data() + b) ||
        !std::all_of(p, p + width, [](uint8_t v) { return v == kSentinelByte; })) {
      continue;
    }
    if (count++ < kMaxNamed) at.push_back(static_cast<int64_t>(b / width));
  }
  if (count == 0) return;
  out << "  (" << count << (count == 1 ? " element holds" : " elements hold")
      << " the runner's fill, bytes " << Hex(std::span<const uint8_t>(handed.data(), width), width)
      << ": left by the port, or written with that value; flat index";
  for (size_t i = 0; i < at.size(); ++i) out << (i ? ", " : " ") << at[i];
  out << (count > kMaxNamed ? ", ...)\n" : ")\n");
}

void PrintOutput(const TensorSpec* spec, const OutputSpec& given, const OutputResult& o,
                 std::ostream& out) {
  out << "output " << o.name << ": ";
  if (o.null) {
    out << "null pointer\n";
    return;
  }
  const DType dtype = given.dtype;
  const Shape dims = ShownDims(o, dtype);
  const int64_t elems = NumElements(dims).value_or(0);
  const uint64_t bytes = BytesForElems(dtype, static_cast<uint64_t>(elems)).value_or(0);
  const auto data = o.contents().first(static_cast<size_t>(bytes));
  const Bytes handed = given.Before();
  const auto all = o.contents();
  const bool untouched = std::equal(all.begin(), all.end(), handed.begin(), handed.end());
  const std::span<const uint8_t> before =
      untouched ? std::span<const uint8_t>(handed) : std::span<const uint8_t>();
  out << Name(dtype) << " dims ";
  if (o.rank < 0 || o.rank > NPUCONF_MAX_RANK) out << "(" << ReportedDims(o) << ") ";
  out << ToString(dims);
  if (!o.guards_intact)
    out << ", WROTE PAST CAPACITY (guard byte at offset " << o.first_bad_offset << ")";
  out << "\n";
  const std::vector<std::string> fields = spec ? spec->fields : std::vector<std::string>{};
  if (Bits(dtype) == 4 || (Bits(dtype) == 8 && dtype != DType::kInt8 && dtype != DType::kUint8)) {
    out << "  " << bytes << " bytes: " << Hex(data, 48) << "\n";
  } else if (!fields.empty() && !dims.empty() &&
             dims.back() == static_cast<int64_t>(fields.size())) {
    for (int64_t row = 0; row < elems / dims.back(); ++row) {
      out << "  ";
      for (size_t f = 0; f < fields.size(); ++f) {
        out << (f ? " " : "") << fields[f] << "="
            << Element(data, before, dtype, row * dims.back() + static_cast<int64_t>(f));
      }
      out << "\n";
    }
  } else if (dims.empty() && spec && !spec->value_unit.empty()) {
    out << "  " << Element(data, before, dtype, 0) << " (" << spec->value_unit << ")\n";
    return;
  } else if (elems <= kMaxPrintedElems) {
    int64_t e = 0;
    out << "  ";
    Nested(data, before, dtype, dims, 0, &e, out);
    out << "\n";
  } else {
    out << "  " << elems << " elements, " << bytes << " bytes, sha256 " << Sha256Hex(data)
        << ", first: ";
    for (int64_t e = 0; e < 8; ++e) out << (e ? ", " : "") << Element(data, before, dtype, e);
    out << ", ...\n";
  }
  if (spec && !spec->value_unit.empty()) out << "  (values: " << spec->value_unit << ")\n";
  PrintFillNote(data, handed, dtype, untouched, out);
}

}  // namespace

void PrintAnswer(const RoutineSpec& spec, const Invocation& inv, const Answer& answer,
                 std::ostream& out) {
  out << "case: " << inv.c.ToText() << "\n";
  if (answer.call_result != NPUCONF_CALL_ANSWERED) {
    out << "port: " << CallResultName(answer.call_result)
        << (answer.message.empty() ? "" : ": " + answer.message) << "\n";
    return;
  }
  out << "status: " << StatusText(spec.vendor, answer.status) << "\n";
  if (!answer.message.empty()) out << "note: " << answer.message << "\n";
  for (size_t i = 0; i < answer.outputs.size() && i < inv.outputs.size(); ++i) {
    PrintOutput(spec.FindOutput(answer.outputs[i].name), inv.outputs[i], answer.outputs[i], out);
  }
}

nlohmann::json AnswerToJson(const RoutineSpec& spec, const Invocation& inv, const Answer& answer,
                            const std::string& port_name) {
  Case listed = inv.c;
  listed.inputs = inv.inputs;
  nlohmann::json doc = {{"case", ToJson(listed)},
                        {"port", port_name},
                        {"call_result", CallResultName(answer.call_result)},
                        {"message", answer.message}};
  if (answer.call_result != NPUCONF_CALL_ANSWERED) return doc;
  doc["status"] = answer.status;
  doc["status_name"] = StatusText(spec.vendor, answer.status);
  nlohmann::json outputs = nlohmann::json::array();
  for (size_t i = 0; i < answer.outputs.size() && i < inv.outputs.size(); ++i) {
    const OutputResult& o = answer.outputs[i];
    nlohmann::json j = {{"name", o.name},
                        {"dtype", std::string(Name(inv.outputs[i].dtype))},
                        {"capacity_bytes", inv.outputs[i].capacity_bytes},
                        {"null", o.null},
                        {"guards_intact", o.guards_intact}};
    if (o.rank >= 0 && o.rank <= NPUCONF_MAX_RANK) j["dims"] = o.dims;
    if (o.rank > NPUCONF_MAX_RANK || o.rank < -1) j["rank"] = o.rank;
    if (!o.null) {
      j["data"] = Base64Encode(o.contents());
      j["sha256"] = Sha256Hex(o.contents());
    }
    outputs.push_back(j);
  }
  doc["outputs"] = outputs;
  return doc;
}

std::string DumpAnswer(const std::string& dir, const RoutineSpec& spec, const Invocation& inv,
                       const Answer& answer, const std::string& port_name) {
  std::error_code ec;
  for (const char* sub : {"", "/inputs", "/outputs"}) {
    std::filesystem::create_directories(dir + sub, ec);
    if (ec) return "cannot create " + dir + sub + ": " + ec.message();
  }
  Case listed = inv.c;
  listed.inputs = inv.inputs;
  const nlohmann::json answer_doc = AnswerToJson(spec, inv, answer, port_name);
  for (const auto& [file, doc] :
       {std::pair{"case.json", ToJson(listed)}, std::pair{"answer.json", answer_doc}}) {
    std::ofstream f(dir + "/" + file);
    f << doc.dump(2) << "\n";
    if (!f) return "cannot write " + dir + "/" + file;
  }
  auto npy_shape = [](DType dtype, const Shape& shape, size_t bytes) {
    return Bits(dtype) == 4 ? Shape{static_cast<int64_t>(bytes)} : shape;
  };
  for (const auto& t : inv.inputs) {
    if (auto e = WriteNpy(dir + "/inputs/" + t.name + ".npy", t.dtype,
                          npy_shape(t.dtype, t.shape, t.bytes.size()), t.bytes);
        !e.empty()) {
      return e;
    }
  }
  for (size_t i = 0; i < answer.outputs.size() && i < inv.outputs.size(); ++i) {
    const OutputResult& o = answer.outputs[i];
    if (o.null || !o.buffer) continue;
    const DType dtype = inv.outputs[i].dtype;
    const Shape dims = ShownDims(o, dtype);
    const uint64_t bytes =
        BytesForElems(dtype, static_cast<uint64_t>(NumElements(dims).value_or(0))).value_or(0);
    const auto data = o.contents().first(static_cast<size_t>(bytes));
    if (auto e = WriteNpy(dir + "/outputs/" + o.name + ".npy", dtype,
                          npy_shape(dtype, dims, data.size()), data);
        !e.empty()) {
      return e;
    }
  }
  return "";
}

}  // namespace npuconf
