<?php

declare(strict_types=1);

namespace Shm\Cache\Symfony;

use Psr\Log\LoggerInterface;
use Shm\Table;
use Symfony\Component\Cache\Adapter\AbstractAdapter;
use Symfony\Component\Cache\CacheItem;
use Symfony\Component\Cache\Exception\CacheException;
use Symfony\Component\Cache\Marshaller\MarshallerInterface;
use Symfony\Component\Cache\PruneableInterface;
use Symfony\Contracts\Cache\CacheInterface;
use Symfony\Contracts\Cache\ItemInterface;

/**
 * A Symfony Cache adapter over Shm\Table, shaped like Symfony's ApcuAdapter: the same constructor
 * (namespace, default lifetime, version, marshaller), built on AbstractAdapter, so it is a PSR-6 pool, a
 * Symfony contracts cache (get() with a callback) and usable in `framework.cache` pools.
 *
 * - The Symfony namespace is a Shm\Table namespace (AbstractAdapter is given none, so ids are the keys
 *   themselves): clear() is Shm\Table::clear() of that namespace, O(1) for readers, and other pools'
 *   entries are untouched. An empty namespace selects the table namespace "@symfony".
 * - $version: the first adapter built with a version the namespace has not seen clears the namespace
 *   (ApcuAdapter's behaviour: a deploy starts with an empty pool). The versions live in the table
 *   namespace "@versions", so clear() does not forget them.
 * - get($key, $callback): on a miss the callback runs in one worker of the host at a time, through
 *   Shm\Table::remember() on a claim key, instead of Symfony's LockRegistry (flock, off under the CLI).
 *   Workers that wait read the value the first one saved. If a waiter finds nothing (the first worker
 *   threw, or chose not to save), it runs the callback itself.
 * - Keys are checked as Symfony's own adapters check them on the Symfony installed: AbstractAdapter
 *   validates them (CacheItem::validateKey()) where it does for ApcuAdapter, which on Symfony 5.4 to 7 is
 *   inside assert(). So a key with a PSR-6 reserved character ("user:42") throws in development
 *   (zend.assertions=1) and is stored in production, as with ApcuAdapter: moving from APCu breaks nothing.
 * - prune() reclaims the namespace's expired entries now (Shm\Table sweeps them lazily otherwise).
 */
class TableAdapter extends AbstractAdapter implements PruneableInterface
{
    private const DEFAULT_NS = '@symfony';
    private const VERSIONS_NS = '@versions';
    /**
     * Claims for get() live in a table namespace of their own, keyed "<pool namespace>\0<key>", so that no
     * item key (reserved characters are accepted in production) collides with one.
     */
    private const CLAIMS_NS = '@claims';
    /** How long a claim key outlives a computation whose worker died before deleting it. */
    private const CLAIM_TTL = 10;
    /**
     * The empty key, which ApcuAdapter stores when assertions are off but Shm\Table refuses, is the key
     * "<pool namespace>" of this table namespace.
     */
    private const EMPTY_KEY_NS = '@empty-key';

    private string $tableNamespace;
    private ?MarshallerInterface $marshaller;

    public function __construct(string $namespace = '', int $defaultLifetime = 0, ?string $version = null, ?MarshallerInterface $marshaller = null)
    {
        if (!static::isSupported()) {
            throw new CacheException('The table extension is not loaded or is disabled (table.enabled=0).');
        }
        if ($namespace !== '') {
            CacheItem::validateKey($namespace);
            if (\strlen($namespace) > 255) {
                throw new \Symfony\Component\Cache\Exception\InvalidArgumentException('A table namespace is at most 255 bytes.');
            }
        }
        $this->tableNamespace = $namespace === '' ? self::DEFAULT_NS : $namespace;
        parent::__construct('', $defaultLifetime);
        // Longer ids are hashed by AbstractAdapter::getId(): Shm\Table's keys are at most 65,535 bytes.
        $this->maxIdLength = 65535;
        $this->marshaller = $marshaller;

        if ($version !== null) {
            CacheItem::validateKey($version);
            if (Table::get($this->tableNamespace, self::VERSIONS_NS) !== $version) {
                $this->doClear('');
                Table::set($this->tableNamespace, $version, null, self::VERSIONS_NS);
            }
        }

        $this->setCallbackWrapper(\Closure::fromCallable([$this, 'computeOnce']));
    }

    public static function isSupported(): bool
    {
        if (!class_exists(Table::class, false)) {
            return false;
        }
        // PHP's own reading of a boolean INI value (no ext/filter needed): on/yes/true, or a non-zero number.
        $v = strtolower(trim((string) \ini_get('table.enabled')));
        return \in_array($v, ['on', 'yes', 'true'], true) || (int) $v !== 0;
    }

    /** The Shm\Table namespace this pool lives in. */
    public function getTableNamespace(): string
    {
        return $this->tableNamespace;
    }

    public function prune(): bool
    {
        // count() sweeps the namespace's expired entries before it counts.
        return Table::count($this->tableNamespace) !== false;
    }

    /**
     * The callback wrapper of get(): one computation per miss across the host.
     *
     * @internal
     */
    public function computeOnce(callable $callback, ItemInterface $item, bool &$save, CacheInterface $pool, ?\Closure $setMetadata = null, ?LoggerInterface $logger = null): mixed
    {
        $key = $item->getKey();
        $claim = $this->tableNamespace . "\0" . $key;
        if (\strlen($claim) > 65535) {
            return $callback($item, $save);
        }
        $recompute = $item->isHit();   // early expiration or $beta = INF: compute even though it is there
        $computed = false;
        $value = null;
        Table::remember($claim, function () use ($callback, $item, &$save, $pool, $setMetadata, $recompute, $key, &$computed, &$value) {
            if (!$recompute) {
                // Whoever held the claim before us may have saved it between our miss and our claim.
                $fresh = $pool->getItem($key);
                if ($fresh->isHit()) {
                    $value = $fresh->get();
                    $save = false;
                    $computed = true;
                    return 1;
                }
            }
            $value = $callback($item, $save);
            $computed = true;
            if ($save) {
                if ($setMetadata !== null) {
                    $setMetadata($item);
                }
                $pool->save($item->set($value));
                $save = false;
            }
            return 1;
        }, self::CLAIM_TTL, self::CLAIMS_NS);

        if ($computed) {
            Table::delete($claim, self::CLAIMS_NS);
            $logger && $logger->info('Item "{key}" computed under a table claim', ['key' => $key]);
            return $value;
        }
        // Another worker computed it: read what it saved.
        $fresh = $pool->getItem($key);
        if ($fresh->isHit()) {
            $save = false;
            $logger && $logger->info('Item "{key}" retrieved after another worker computed it', ['key' => $key]);
            return $fresh->get();
        }
        return $callback($item, $save);
    }

    protected function doFetch(array $ids): iterable
    {
        $unserializeCallbackHandler = ini_set('unserialize_callback_func', parent::class . '::handleUnserializeCallback');
        try {
            $empty = array_search('', $ids = array_map('strval', $ids), true);
            if ($empty !== false) {
                unset($ids[$empty]);
            }
            $values = $ids === [] ? [] : Table::getMany(array_values($ids), $this->tableNamespace);
            if ($empty !== false && ($hit = Table::getMany([$this->tableNamespace], self::EMPTY_KEY_NS)) !== []) {
                $values[''] = reset($hit);
            }
            if ($this->marshaller !== null) {
                foreach ($values as $id => $v) {
                    $values[$id] = $this->marshaller->unmarshall($v);
                }
            }
            return $values;
        } catch (\Error $e) {
            throw new \ErrorException($e->getMessage(), $e->getCode(), \E_ERROR, $e->getFile(), $e->getLine());
        } finally {
            ini_set('unserialize_callback_func', $unserializeCallbackHandler);
        }
    }

    protected function doHave(string $id): bool
    {
        return $id === '' ? Table::exists($this->tableNamespace, self::EMPTY_KEY_NS) : Table::exists($id, $this->tableNamespace);
    }

    protected function doClear(string $namespace): bool
    {
        if ($namespace === '') {
            Table::delete($this->tableNamespace, self::EMPTY_KEY_NS);
            return Table::clear($this->tableNamespace);
        }
        // clear($prefix): the keys that start with it (glob metacharacters escaped).
        $keys = Table::keys(addcslashes($namespace, '\\*?[]') . '*', $this->tableNamespace);
        if ($keys === false) {
            return false;
        }
        if ($keys !== []) {
            Table::deleteMany($keys, $this->tableNamespace);
        }
        return true;
    }

    protected function doDelete(array $ids): bool
    {
        $ids = array_map('strval', $ids);
        if (($empty = array_search('', $ids, true)) !== false) {
            unset($ids[$empty]);
            Table::delete($this->tableNamespace, self::EMPTY_KEY_NS);
        }
        if ($ids !== []) {
            Table::deleteMany(array_values($ids), $this->tableNamespace);
        }
        return true;
    }

    protected function doSave(array $values, int $lifetime): array|bool
    {
        if ($this->marshaller !== null && !$values = $this->marshaller->marshall($values, $failed)) {
            return $failed;
        }
        $expire = $lifetime > 0 ? min($lifetime, 2147483647) : null;
        if (\array_key_exists('', $values)) {
            if (!Table::set($this->tableNamespace, $values[''], $expire, self::EMPTY_KEY_NS)) {
                $failed[] = '';
            }
            unset($values['']);
            if ($values === []) {
                return $failed ?? [];
            }
        }
        if (Table::setMany($values, $expire, $this->tableNamespace)) {
            return $failed ?? [];
        }
        // Out of memory for part of the batch: store one by one to report which ids are not stored.
        $failures = $failed ?? [];
        foreach ($values as $id => $value) {
            if (!Table::set((string) $id, $value, $expire, $this->tableNamespace)) {
                $failures[] = $id;
            }
        }
        return $failures;
    }
}
