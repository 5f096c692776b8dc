# SPDX-License-Identifier: GPL-2.0
#
# Bad input to /dev/perf_persistent: each case gets its documented errno,
# leaves no state behind, and loses nothing already recorded.
. ./lib.sh

E=$pp_error_event
pp_load
pp_inject_error 0
pp_inject_error 1
pp_wait_stat "$E" written 2
rm -f /tmp/hold
pp-ctl create keep sw=1 detached create mine sw=1 hold >/tmp/hold &
holder=$!
pp_wait_grep '^hold: OK' /tmp/hold
pp-ctl pause "$E" info "$E" >/tmp/before
events_before=$(ls "$PP_SYS/events" | xargs)
list_before=$(pp-ctl list)

# expect ERRNO ARGS...: the last pp-ctl line must end in ": ERRNO".  A
# creation of "b" meant to fail that succeeds is undone, so that it fails
# alone and not the checks after it.
expect() {
	_want=$1
	shift
	_got=$(pp-ctl "$@" | tail -n 1)
	check_eq "$* -> $_want" "$_want" "${_got##*: }"
	pp_destroy_stray b
}

# Unknown ids and names.
for verb in destroy detach attach pause resume info; do
	expect ENOENT $verb 999
done
expect ENOENT info nosuch
expect ENOENT destroy 0
expect ENOENT destroy 0x100000001

# Names.
expect EEXIST create keep sw=1 detached
expect EEXIST create "$E" sw=1 detached
for name in Bad 1abc _x a-b period config name id r12 rbeef \
	abcdefghijklmnopqrstuvwxyz0123456; do
	expect EINVAL create "$name" sw=1 detached
done

# Buffer sizes.
expect EINVAL create b sw=1 detached buffer=12288
expect EINVAL create b sw=1 detached buffer=100
expect EINVAL create b sw=1 detached buffer=2048
expect E2BIG create b sw=1 detached buffer=134217728
expect E2BIG create b sw=1 detached buffer=0x8000000000000000

# Sources the kernel refuses: its errno is passed on.
expect ENOENT create b raw=12345:0 detached
# (A watchpoint of 12 bytes: x86 takes powers of two, arm64 1 to 8 bytes.)
expect EINVAL create b bp=0x1000:12:w detached
expect EOPNOTSUPP create b sw=1 detached sample=0x40000
expect EOPNOTSUPP create b sw=1 detached sample=0x8000000000000000

# The struct's own size, flags and reserved fields.
expect EINVAL create b sw=1 detached size=0
expect EINVAL create b sw=1 detached size=63
expect E2BIG create b sw=1 detached size=128 tail
expect E2BIG create b sw=1 detached size=8192
expect EINVAL create b sw=1 flags=0x10
expect EINVAL create b sw=1 detached reserved
expect EINVAL create b sw=1 detached attr-size=32
expect E2BIG create b sw=1 detached attr-size=8192
# A larger struct with a zero tail is fine (it can grow).  The failed
# creations above took no id: the next one follows the last created.
expect "OK id=$(($(pp_stat keep id) + 2))" create grown sw=1 detached size=128
expect OK destroy grown
# A program built with a header whose structs grew: the command's size bits
# say the larger size; the module goes by the struct's size field.
expect "OK id=$(($(pp_stat keep id) + 3))" create grown sw=1 detached size=128 cmd-size=128
expect OK destroy grown
expect E2BIG create b sw=1 detached size=128 tail cmd-size=128
expect "OK id=$(($(pp_stat keep id) + 4))" create b sw=1 detached cmd-size=0
expect OK info-raw "$(pp_stat keep id)" cmd-size=128
expect OK list-raw cmd-size=64
expect ENOTTY ioctl 0xc040b920

# Ownership.
expect EALREADY detach keep
expect EBUSY destroy mine
expect EBUSY detach mine
expect EBUSY attach mine
pp-ctl attach keep attach keep detach keep >/tmp/out
check_grep "attach keep; attach keep -> EALREADY" "^attach keep: EALREADY$" /tmp/out
check_grep "(and detach it again)" "^detach keep: OK$" /tmp/out

# Unknown ioctls.
expect ENOTTY ioctl 0
expect ENOTTY ioctl 0xb920
expect ENOTTY ioctl 0x2400

# Without CAP_PERFMON / CAP_SYS_ADMIN: EPERM for every verb that changes.
expect EPERM drop-caps create u sw=1 detached
for verb in destroy detach attach pause resume; do
	expect EPERM drop-caps $verb keep
done
check_eq "drop-caps info keep -> allowed" "info keep: OK" "$(pp-ctl drop-caps info keep | grep '^info keep:')"
_got=$(pp-ctl drop-caps list | tail -n 1)
check_eq "drop-caps list -> allowed" "$list_before" "${_got}"
# Not root: the device is 0600 root.
expect EACCES setuid 65534 info keep

# Nothing left behind, nothing recorded lost.
check_eq "events/ unchanged" "$events_before" "$(ls "$PP_SYS/events" | xargs)"
check_eq "LIST unchanged" "$list_before" "$(pp-ctl list)"
pp-ctl info "$E" >/tmp/after
check_eq "$E's records kept (cpu lines identical)" \
	"$(grep ^cpu /tmp/before | sed 's/ count=[0-9]*//')" \
	"$(grep ^cpu /tmp/after | sed 's/ count=[0-9]*//')"
check_eq "$E still holds both errors" $((2 * $(pp_error_record_size))) \
	"$(grep ^cpu /tmp/after | sed 's/.* held=//' | paste -sd+ | bc)"
pp-ctl resume "$E" destroy keep >/dev/null
kill $holder
wait $holder
check "kernel log clean" pp_log_clean

done_testing
