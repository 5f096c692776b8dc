/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registry of persistent events: unique ids and names, ownership, and the
 * reference count that decides when an event is freed.
 *
 * References.  An event has one owner reference while it is listed: held by
 * the registry while the event is detached (persistent), by the owning file
 * while it is attached.  Detach and attach move that reference between the
 * two without changing the count.  Every reader (a perf reader event, an
 * mmap of a buffer) holds a reference of its own.  Destroy unlists the
 * event at once (no lookup finds it afterwards) and hands the owner
 * reference back to the caller, which stops the event and drops it; the
 * event is freed when the last reference goes.
 *
 * Locking.  reg->lock (a mutex) serialises every change: reserve, publish,
 * ownership changes, unlisting.  Lookups for readers take no lock: they run
 * under RCU and take a reference only if the count is not zero; entries are
 * therefore freed after an RCU grace period by their release function.
 */
#ifndef _PERF_PERSISTENT_REGISTRY_H
#define _PERF_PERSISTENT_REGISTRY_H

#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include <uapi/linux/perf_persistent.h>

enum pp_owner {
	PP_OWNER_NONE,		/* destroyed, or not yet published */
	PP_OWNER_REGISTRY,	/* detached: persistent */
	PP_OWNER_FILE,		/* attached to owner_file */
};

/**
 * struct pp_entry - what the registry knows of a persistent event
 * @ref: references (see above)
 * @id: unique id, never reused while the module is loaded
 * @name: unique name among the entries of this boot, and apart from them
 *	among the previous boot's
 * @previous: a previous boot's event (previous.h): read-only, and never
 *	found by name
 * @owner: who holds the owner reference; under the registry lock
 * @owner_file: the owning file while @owner is PP_OWNER_FILE
 * @listed: visible to lookups; written under the registry lock and read
 *	without it
 * @node: on the registry's @reserved list from reserve to publish or
 *	cancel; on a caller's list after pp_registry_take_*()
 * @name_node: in the registry's @names from reserve to cancel or unlist
 * @release: frees the containing object, at the earliest an RCU grace
 *	period after the count reached zero; process context
 */
struct pp_entry {
	struct kref		ref;
	u32			id;
	char			name[PERF_PERSISTENT_NAME_MAX];
	bool			previous;
	enum pp_owner		owner;
	const void		*owner_file;
	bool			listed;
	struct list_head	node;
	struct hlist_node	name_node;
	void			(*release)(struct pp_entry *entry);
};

/* Buckets of the names' hash table: a few entries each for a thousand events. */
#define PP_REGISTRY_NAME_BITS	8

/*
 * @reserved holds the entries reserved and not yet published: their names
 * are taken while their creator allocates without the lock.  @names holds
 * every entry that takes a name, reserved or listed, hashed by name.
 */
struct pp_registry {
	struct mutex		lock;		/* serialises every change */
	struct xarray		entries;
	struct list_head	reserved;
	DECLARE_HASHTABLE(names, PP_REGISTRY_NAME_BITS);
	u64			next_id;
	unsigned int		count;
};

void pp_registry_init(struct pp_registry *reg);
void pp_registry_destroy(struct pp_registry *reg);
bool pp_name_valid(const char *name);

int pp_registry_reserve(struct pp_registry *reg, struct pp_entry *entry,
			const void *owner_file);
void pp_registry_publish(struct pp_registry *reg, struct pp_entry *entry);
void pp_registry_cancel(struct pp_registry *reg, struct pp_entry *entry);

struct pp_entry *pp_registry_find(struct pp_registry *reg, u32 id,
				  const char *name);
struct pp_entry *pp_registry_get(struct pp_registry *reg, u32 id);

int pp_entry_detach(struct pp_registry *reg, struct pp_entry *entry,
		    const void *file);
int pp_entry_attach(struct pp_registry *reg, struct pp_entry *entry,
		    const void *file);
int pp_entry_unlist(struct pp_registry *reg, struct pp_entry *entry,
		    const void *file);
unsigned int pp_registry_take_file(struct pp_registry *reg, const void *file,
				   struct list_head *out);
unsigned int pp_registry_take_all(struct pp_registry *reg,
				  struct list_head *out);

void pp_entry_get(struct pp_entry *entry);
bool pp_entry_tryget(struct pp_entry *entry);
void pp_entry_put(struct pp_entry *entry);

#endif /* _PERF_PERSISTENT_REGISTRY_H */
