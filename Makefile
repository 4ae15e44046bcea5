# npuconf: the two commands a newcomer types are `make run` and `make test`.
# Everything is built with CMake into build/ (build-sanitize/ for `make sanitize`).

BUILD ?= build
JOBS ?= 2
REPORT ?= npuconf-report
# Debian packages the build needs (see README).
PACKAGES := cmake g++ make librapidcheck-dev libgtest-dev libgmock-dev libeigen3-dev \
            nlohmann-json3-dev libcli11-dev libbenchmark-dev libssl-dev libxxhash-dev libdnnl-dev \
            python3-jsonschema python3-numpy python3-yaml clang-format chromium dpkg-dev file

.PHONY: deps configure build build-npuconf run test package sanitize bench format format-check clean

# Installs whichever package is missing (non-interactive apt-get; needs root).
deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

# Everything: the npuconf program, the tests, the benchmarks, the examples.
build: configure
	cmake --build $(BUILD) -j$(JOBS)

# Only what the main job runs: the npuconf program and its libraries.
build-npuconf: configure
	cmake --build $(BUILD) -j$(JOBS) --target npuconf

# The main job: every property, every profile, real model shapes, on the
# built-in reference port; reports in $(REPORT)/.
run: build-npuconf
	./$(BUILD)/npuconf run --port reference --out $(REPORT)
	./$(BUILD)/npuconf vectors check vectors/corpus --port reference --out $(REPORT)/corpus

test: build format-check
	ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure

# The Debian package $(BUILD)/npuconf_<version>_<arch>.deb (CPack; Depends from
# dpkg-shlibdeps). Installing needs only npuconf built, not the tests.
package: build-npuconf
	cd $(BUILD) && cpack -G DEB

sanitize: deps
	cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPUCONF_SANITIZE=ON -DNPUCONF_BUILD_BENCH=OFF
	cmake --build build-sanitize -j$(JOBS)
	# The ports of tests/ports misbehave on purpose and are built without the
	# sanitizers: their crashes must reach the runner as signals (handle_*=0),
	# their far overflows as faults (replace_intrin=0 keeps ASan's memset out).
	ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:replace_intrin=0 \
	  ctest --test-dir build-sanitize -j$(JOBS) --output-on-failure

# Builds only the benchmarks (not the whole suite), prints the speed table and
# exits 1 when a goal of README's Speed section is missed.
bench: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	./bench/run_benchmarks.sh $(BUILD)

format:
	clang-format -i $$(git ls-files '*.h' '*.cpp' '*.c')

# Fails (and names the files) when a C/C++ file differs from .clang-format; part of `make test`.
format-check: deps
	clang-format --dry-run --Werror $$(git ls-files '*.h' '*.cpp' '*.c')

clean:
	rm -rf $(BUILD) build-sanitize $(REPORT)
