// What a failed load of a port library means, for a person: dlopen's text
// plus the likely cause, so "cannot load" says what to fix.
#pragma once

#include <string>

namespace npuconf {

// dlerror()'s text (may be null) with a hint: not a shared object, built for
// another architecture, a missing dependency or symbol.
std::string ExplainDlopenFailure(const std::string& path, const char* dlerror_text);

// The library loaded but has no npuconf_port_entry.
std::string MissingEntryMessage(const std::string& path);

}  // namespace npuconf
