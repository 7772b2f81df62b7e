#!/bin/sh
# Links the consumer, the transport, the native jar's module, Netty and the JDK modules they need into a runtime
# image with jlink, and runs the echo from the image's own java. jlink takes explicit modules only (it refuses an
# automatic one), so this fails unless every jar the consumer runs on carries a module descriptor. The image is
# told to resolve the native module (nothing requires it: the transport loads without it), as an application's
# launcher would be. Run by this project's integration-test phase.
# Usage: jlink-echo.sh JAVA_HOME MODULE_PATH MAIN_MODULE MAIN_CLASS NATIVE_MODULE IMAGE_DIR
set -eu
java_home=$1
module_path=$2
main_module=$3
main_class=$4
native_module=$5
image=$6

# The handshake's X25519 keys live in jdk.crypto.ec on JDK 17 to 21 (java.base has them from 22 on), a provider
# module that nothing requires (docs/installing.md#jdk): added where the JDK has it.
modules=$main_module,$native_module
if "$java_home/bin/java" --list-modules | grep -q '^jdk\.crypto\.ec@'; then
    modules=$modules,jdk.crypto.ec
fi
rm -rf "$image"
# The space before --add-modules: jlink takes a value that starts with "--" for an option of its own.
"$java_home/bin/jlink" --module-path "$module_path" --add-modules "$modules" \
    --add-options=" --add-modules=$native_module" --no-header-files --no-man-pages --strip-debug --output "$image"
echo "jlink image $image: $("$image/bin/java" --list-modules | grep -c .) modules"
"$image/bin/java" -Xcheck:jni -Dio.netty.leakDetection.level=paranoid --module "$main_module/$main_class"
