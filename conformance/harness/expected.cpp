#include "conformance/harness/expected.h"

#include "conformance/harness/materialize.h"

namespace npuconf {

Expected ExpectLayout(const LayoutInstance& instance, int64_t success, const Invocation& inv,
                      const std::string& rule) {
  const Bytes* in = nullptr;
  if (const InputTensor* t = inv.Input(instance.input)) in = &t->bytes;
  for (const auto& o : inv.outputs) {
    if (!in && o.name == instance.input && !o.initial.empty()) in = &o.initial;
  }
  if (!in) throw CaseError("no input '" + instance.input + "' in " + inv.c.ToText());
  Expected e;
  e.rule = rule;
  e.status = success;
  Bytes out = instance.oracle(*in);
  out.resize(instance.output_codec.Bytes(instance.output_elems), 0);
  e.outputs.push_back({instance.output, instance.output_codec.dtype, instance.output_dims, out,
                       instance.output_dims});
  return e;
}

}  // namespace npuconf
