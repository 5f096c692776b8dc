// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: registry of persistent events (ids, names, ownership,
 * references).  See registry.h for the model.
 *
 * Every function that changes the registry runs in process context with
 * reg->lock held (lockdep-asserted); pp_registry_get() and the reference
 * helpers take no lock.
 */

#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/stringhash.h>

#include "registry.h"

void pp_registry_init(struct pp_registry *reg)
{
	mutex_init(&reg->lock);
	xa_init_flags(&reg->entries, XA_FLAGS_ALLOC);
	INIT_LIST_HEAD(&reg->reserved);
	hash_init(reg->names);
	reg->next_id = 1;
	reg->count = 0;
}

/* The registry must be empty: every entry taken and put. */
void pp_registry_destroy(struct pp_registry *reg)
{
	WARN_ON(!xa_empty(&reg->entries));
	xa_destroy(&reg->entries);
	mutex_destroy(&reg->lock);
}

/*
 * Names the perf tool reads as something other than an alias inside
 * "persistent/.../": its built-in terms (tools/perf/util/parse-events.l,
 * 6.1) and the PMU's format terms.
 */
static const char *const pp_reserved_names[] = {
	"config", "config1", "config2", "config3", "name", "period", "freq",
	"branch_type", "time", "nr", "inherit", "overwrite", "percore", "cpu",
	"id", "nohistory",
};

static bool is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/**
 * pp_name_valid - may @name be a persistent event's name?
 * @name: NUL-terminated candidate
 *
 * 1 to PERF_PERSISTENT_NAME_MAX - 1 characters of [a-z0-9_], starting with
 * a letter; not a reserved name; not "r" followed only by hex digits (perf
 * reads that as a raw event code).
 */
bool pp_name_valid(const char *name)
{
	size_t len = strnlen(name, PERF_PERSISTENT_NAME_MAX);
	bool raw_code = name[0] == 'r' && len > 1;
	unsigned int i;

	/* ASCII only: the kernel's islower() also takes Latin-1 letters. */
	if (!len || len == PERF_PERSISTENT_NAME_MAX || !is_lower(name[0]))
		return false;
	for (i = 0; i < len; i++) {
		if (!is_lower(name[i]) && !is_digit(name[i]) && name[i] != '_')
			return false;
		if (i && !is_digit(name[i]) && (name[i] < 'a' || name[i] > 'f'))
			raw_code = false;
	}
	if (raw_code)
		return false;
	for (i = 0; i < ARRAY_SIZE(pp_reserved_names); i++)
		if (!strcmp(name, pp_reserved_names[i]))
			return false;
	return true;
}

static u32 name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

/*
 * The entry of this boot or, for @previous, of the previous boot that
 * takes @name: listed, or reserved by a creation in progress.
 */
static struct pp_entry *find_name(struct pp_registry *reg, const char *name,
				  bool previous)
{
	struct pp_entry *entry;

	hash_for_each_possible(reg->names, entry, name_node, name_hash(name))
		if (entry->previous == previous && !strcmp(entry->name, name))
			return entry;
	return NULL;
}

/**
 * pp_registry_reserve - give @entry an id and claim its name
 * @reg: the registry, locked
 * @entry: entry with @name and @previous set; not yet visible to lookups
 * @owner_file: the file that will own it, or NULL for a detached entry
 *
 * The entry holds its owner reference on return.  Lookups do not see it
 * until pp_registry_publish(), but its name is taken from now on: the
 * creator may drop the lock to allocate.  pp_registry_cancel() undoes this.
 *
 * Return: 0, -EINVAL for an invalid name, -EEXIST if the name is taken,
 * -ENOSPC when ids are exhausted, -ENOMEM.
 */
int pp_registry_reserve(struct pp_registry *reg, struct pp_entry *entry,
			const void *owner_file)
{
	u32 id;
	int ret;

	lockdep_assert_held(&reg->lock);
	if (!pp_name_valid(entry->name))
		return -EINVAL;
	if (find_name(reg, entry->name, entry->previous))
		return -EEXIST;
	if (reg->next_id > U32_MAX)
		return -ENOSPC;

	/* A NULL entry reserves the id: xa_load() returns NULL until publish. */
	ret = xa_alloc(&reg->entries, &id, NULL,
		       XA_LIMIT((u32)reg->next_id, U32_MAX), GFP_KERNEL);
	if (ret)
		return ret == -EBUSY ? -ENOSPC : ret;

	reg->next_id = (u64)id + 1;
	entry->id = id;
	entry->owner = PP_OWNER_NONE;
	entry->owner_file = owner_file;
	entry->listed = false;
	kref_init(&entry->ref);
	list_add_tail(&entry->node, &reg->reserved);
	hash_add(reg->names, &entry->name_node, name_hash(entry->name));
	return 0;
}

/* Make a reserved entry visible; @reg locked. */
void pp_registry_publish(struct pp_registry *reg, struct pp_entry *entry)
{
	lockdep_assert_held(&reg->lock);
	list_del_init(&entry->node);
	entry->owner = entry->owner_file ? PP_OWNER_FILE : PP_OWNER_REGISTRY;
	WRITE_ONCE(entry->listed, true);
	xa_store(&reg->entries, entry->id, entry, GFP_KERNEL);
	reg->count++;
}

/*
 * Undo pp_registry_reserve() for an entry that was never published; @reg
 * locked.  No one can have seen its id, so the id is given back when it is
 * the last one handed out: a failed creation consumes nothing.  The caller
 * frees the entry without a put.
 */
void pp_registry_cancel(struct pp_registry *reg, struct pp_entry *entry)
{
	lockdep_assert_held(&reg->lock);
	list_del_init(&entry->node);
	hash_del(&entry->name_node);
	xa_erase(&reg->entries, entry->id);
	if (reg->next_id == (u64)entry->id + 1)
		reg->next_id = entry->id;
}

/*
 * Look up a listed entry by @id, or by @name when @id is 0 (this boot's
 * entries only); @reg locked.
 * No reference is taken: the lock keeps the entry listed.
 */
struct pp_entry *pp_registry_find(struct pp_registry *reg, u32 id,
				  const char *name)
{
	struct pp_entry *entry;

	lockdep_assert_held(&reg->lock);
	if (id)
		return xa_load(&reg->entries, id);
	entry = find_name(reg, name, false);
	return entry && entry->listed ? entry : NULL;
}

/**
 * pp_registry_get - look up a listed entry by id and take a reference
 * @reg: the registry; not locked
 * @id: the id
 *
 * Any context that may take an RCU read lock.
 *
 * Return: the entry with a reference the caller must put, or NULL.
 */
struct pp_entry *pp_registry_get(struct pp_registry *reg, u32 id)
{
	struct pp_entry *entry;

	rcu_read_lock();
	entry = xa_load(&reg->entries, id);
	if (entry && (!READ_ONCE(entry->listed) || !pp_entry_tryget(entry)))
		entry = NULL;
	rcu_read_unlock();
	return entry;
}

/**
 * pp_entry_detach - make the entry owned by @file persistent
 * @reg: the registry, locked
 * @entry: a listed entry
 * @file: the caller's file
 *
 * Return: 0, -EALREADY if it is detached, -EBUSY if another file owns it.
 */
int pp_entry_detach(struct pp_registry *reg, struct pp_entry *entry,
		    const void *file)
{
	lockdep_assert_held(&reg->lock);
	if (entry->owner == PP_OWNER_REGISTRY)
		return -EALREADY;
	if (entry->owner_file != file)
		return -EBUSY;
	entry->owner = PP_OWNER_REGISTRY;
	entry->owner_file = NULL;
	return 0;
}

/**
 * pp_entry_attach - bind a persistent entry's lifetime to @file
 * @reg: the registry, locked
 * @entry: a listed entry
 * @file: the caller's file
 *
 * Return: 0, -EALREADY if @file owns it, -EBUSY if another file does.
 */
int pp_entry_attach(struct pp_registry *reg, struct pp_entry *entry,
		    const void *file)
{
	lockdep_assert_held(&reg->lock);
	if (entry->owner == PP_OWNER_FILE)
		return entry->owner_file == file ? -EALREADY : -EBUSY;
	entry->owner = PP_OWNER_FILE;
	entry->owner_file = file;
	return 0;
}

static void unlist(struct pp_registry *reg, struct pp_entry *entry)
{
	hash_del(&entry->name_node);
	xa_erase(&reg->entries, entry->id);
	WRITE_ONCE(entry->listed, false);
	entry->owner = PP_OWNER_NONE;
	entry->owner_file = NULL;
	reg->count--;
}

/**
 * pp_entry_unlist - destroy request: remove @entry from every lookup
 * @reg: the registry, locked
 * @entry: a listed entry
 * @file: the requesting file (NULL: the module itself)
 *
 * On success the caller inherits the owner reference: it stops the event
 * and puts it.
 *
 * Return: 0, or -EBUSY if a file other than @file owns the entry.
 */
int pp_entry_unlist(struct pp_registry *reg, struct pp_entry *entry,
		    const void *file)
{
	lockdep_assert_held(&reg->lock);
	if (entry->owner == PP_OWNER_FILE && entry->owner_file != file)
		return -EBUSY;
	unlist(reg, entry);
	return 0;
}

/* Unlist the entries @match accepts onto @out; @reg locked. */
static unsigned int take(struct pp_registry *reg, struct list_head *out,
			 bool (*match)(const struct pp_entry *, const void *),
			 const void *file)
{
	struct pp_entry *entry;
	unsigned int n = 0;
	unsigned long id;

	lockdep_assert_held(&reg->lock);
	xa_for_each(&reg->entries, id, entry) {
		if (!match(entry, file))
			continue;
		unlist(reg, entry);
		list_add_tail(&entry->node, out);
		n++;
	}
	return n;
}

static bool owned_by(const struct pp_entry *entry, const void *file)
{
	return entry->owner == PP_OWNER_FILE && entry->owner_file == file;
}

static bool any(const struct pp_entry *entry, const void *file)
{
	return true;
}

/**
 * pp_registry_take_file - unlist every entry @file owns
 * @reg: the registry, locked
 * @file: the file being released
 * @out: the entries are added here (via ->node) with their owner references
 *
 * Return: the number of entries taken.
 */
unsigned int pp_registry_take_file(struct pp_registry *reg, const void *file,
				   struct list_head *out)
{
	return take(reg, out, owned_by, file);
}

/* As pp_registry_take_file(), for every listed entry (module exit). */
unsigned int pp_registry_take_all(struct pp_registry *reg,
				  struct list_head *out)
{
	return take(reg, out, any, NULL);
}

/* A reference for a reader that already holds one, or holds the lock. */
void pp_entry_get(struct pp_entry *entry)
{
	kref_get(&entry->ref);
}

/* A reference unless the entry is being freed. */
bool pp_entry_tryget(struct pp_entry *entry)
{
	return kref_get_unless_zero(&entry->ref);
}

static void pp_entry_release(struct kref *ref)
{
	struct pp_entry *entry = container_of(ref, struct pp_entry, ref);

	entry->release(entry);
}

/* Process context: the last put frees the entry's object. */
void pp_entry_put(struct pp_entry *entry)
{
	kref_put(&entry->ref, pp_entry_release);
}
