# npuconf: the two commands a newcomer types are `make run` and `make test`.
# Everything is built with CMake into build/ (build-sanitize/ for `make sanitize`,
# build-fuzz/ for `make fuzz`).

BUILD ?= build
JOBS ?= 2
REPORT ?= npuconf-report
# Debian packages the build needs (see README).
PACKAGES := cmake g++ make librapidcheck-dev libgtest-dev libgmock-dev libeigen3-dev \
            nlohmann-json3-dev libcli11-dev libbenchmark-dev libssl-dev libxxhash-dev libdnnl-dev \
            python3-jsonschema python3-numpy python3-yaml clang-format chromium dpkg-dev file

# `make test-arm64`: Debian's cross toolchain, qemu, and the :arm64 variants of
# the libraries above that have code (the header-only ones are Architecture: all),
# and libstdc++6:arm64, so that qemu runs everything from the multiarch root (see
# cmake/toolchains/aarch64-linux-gnu.cmake: not the cross sysroot).
ARM64_BUILD ?= build-arm64
ARM64_TOOLS := g++-aarch64-linux-gnu qemu-user-static
ARM64_LIBS := librapidcheck-dev libgtest-dev libgmock-dev libssl-dev libxxhash-dev libstdc++6
QEMU_ARM64 := qemu-aarch64-static -L /
# The test programs of the areas labelled arm64 (tests/CMakeLists.txt).
ARM64_TARGETS := npuconf tests_core tests_reference tests_oracles tests_cli

# `make fuzz`: each libFuzzer target of fuzz/ for FUZZ_SECONDS (README, "Fuzzing").
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_PACKAGES := clang libclang-rt-14-dev
FUZZ_CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo
# `make fuzz-ci` (.ci/run): every target compiled the same way at -O1 without
# debug info (the compile is most of its cost) and run FUZZ_CI_SECONDS each.
FUZZ_CI_BUILD ?= build-fuzz-ci
FUZZ_CI_SECONDS ?= 2

.PHONY: deps deps-arm64 fuzz-deps configure build build-npuconf run test test-arm64 package sanitize \
        fuzz fuzz-ci bench format format-check clean

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

# Adds the arm64 architecture to dpkg (multiarch) when it is missing, then
# installs whichever of the cross tools and :arm64 libraries is missing.
deps-arm64: deps
	@SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	update=""; \
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then \
	  echo "adding dpkg architecture arm64"; $$SUDO dpkg --add-architecture arm64; update=1; \
	fi; \
	missing=""; for p in $(ARM64_TOOLS) $(addsuffix :arm64,$(ARM64_LIBS)); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# clang and libFuzzer (Debian's libclang-rt-14-dev), for `make fuzz` only.
fuzz-deps:
	@$(MAKE) --no-print-directory deps PACKAGES="$(FUZZ_PACKAGES)"

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

# aarch64: cross-builds into $(ARM64_BUILD)/ (cmake/toolchains/aarch64-linux-gnu.cmake),
# runs the tests labelled arm64 under qemu-user (CTest puts the emulator before
# each test program; a test that starts npuconf by path starts a wrapper script
# that runs it under qemu), then the main job's properties without the real
# model shapes on the reference port, whose exit code must be 0.
test-arm64: deps-arm64
	cmake -S . -B $(ARM64_BUILD) -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake -DNPUCONF_BUILD_BENCH=OFF
	cmake --build $(ARM64_BUILD) -j$(JOBS) --target $(ARM64_TARGETS)
	ctest --test-dir $(ARM64_BUILD) -L arm64 -j$(JOBS) --output-on-failure
	$(QEMU_ARM64) $(ARM64_BUILD)/npuconf --version
	$(QEMU_ARM64) $(ARM64_BUILD)/npuconf run --no-real-shapes --port reference --quiet \
	  --out $(ARM64_BUILD)/$(REPORT); code=$$?; \
	  echo "npuconf run --no-real-shapes under qemu-aarch64: exit $$code"; exit $$code

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

# Builds the libFuzzer targets of fuzz/ (clang, ASan + UBSan) into $(FUZZ_BUILD)/
# and runs each for FUZZ_SECONDS from fuzz/corpus/TARGET/; stops at the first
# target that finds a crash, leak or timeout (its input: $(FUZZ_BUILD)/fuzz/fuzz-artifacts/,
# the whole output: $(FUZZ_BUILD)/fuzz/fuzz-TARGET.log).
fuzz: fuzz-deps
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) $(FUZZ_CMAKE_FLAGS) \
	  -DNPUCONF_FUZZ=ON -DNPUCONF_BUILD_BENCH=OFF
	cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_all
	@for binary in $(FUZZ_BUILD)/fuzz/fuzz_*; do \
	  [ -f "$$binary" ] && [ -x "$$binary" ] || continue; \
	  target=$$(basename "$$binary"); target=$${target#fuzz_}; \
	  echo "== fuzz $$target ($(FUZZ_SECONDS) s)"; \
	  log=$(FUZZ_BUILD)/fuzz/fuzz-$$target.log; \
	  ./fuzz/run_fuzzer.sh "$$binary" "$$target" $(FUZZ_SECONDS) > "$$log" 2>&1; status=$$?; \
	  grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|SUMMARY|fuzz: )" "$$log"; \
	  [ $$status -eq 0 ] || { echo "fuzz $$target failed (exit $$status): $$log"; exit 1; }; \
	done

# CI's check that the fuzz targets still build with Debian's clang and run
# (clang 14 once refused a lambda capturing a structured binding, and nothing
# noticed): `make fuzz` at -O1, no debug info, no tests, FUZZ_CI_SECONDS a target.
fuzz-ci:
	@$(MAKE) --no-print-directory fuzz FUZZ_BUILD=$(FUZZ_CI_BUILD) FUZZ_SECONDS=$(FUZZ_CI_SECONDS) \
	  FUZZ_CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DCMAKE_C_FLAGS_RELEASE=-O1 -DNPUCONF_BUILD_TESTS=OFF -DNPUCONF_INSTALL=OFF"

# Builds only the benchmarks (not the whole suite), prints the speed table and
# exits 1 when a goal of README's Speed section is missed.
bench: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	./bench/run_benchmarks.sh $(BUILD)

format:
	clang-format -i $$(git ls-files '*.h' '*.cpp' '*.c')

# Fails (and names the files) when a C/C++ file differs from .clang-format; part of `make test`.
# Files in groups of 16 over $(JOBS) processes: one process took 47 s here.
format-check: deps
	git ls-files -z '*.h' '*.cpp' '*.c' | xargs -0 -n 16 -P $(JOBS) clang-format --dry-run --Werror

clean:
	rm -rf $(BUILD) build-sanitize $(ARM64_BUILD) $(FUZZ_BUILD) $(REPORT)
