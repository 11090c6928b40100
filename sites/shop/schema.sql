-- Northwind Market: catalog, customers, carts, orders and after-sales.
-- Money is stored in integer cents; timestamps are ISO 8601 text (naive UTC).

CREATE TABLE store_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE categories (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL
);

CREATE TABLE products (
  id INTEGER PRIMARY KEY,
  sku TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL UNIQUE,
  brand TEXT NOT NULL,
  category_id INTEGER NOT NULL REFERENCES categories (id),
  description TEXT NOT NULL,
  price_cents INTEGER NOT NULL CHECK (price_cents > 0),
  rating REAL NOT NULL DEFAULT 0,
  review_count INTEGER NOT NULL DEFAULT 0,
  stock INTEGER NOT NULL CHECK (stock >= 0),
  created_at TEXT NOT NULL
);
CREATE INDEX products_category ON products (category_id);

CREATE TABLE product_options (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products (id),
  kind TEXT NOT NULL CHECK (kind IN ('size', 'color')),
  value TEXT NOT NULL,
  position INTEGER NOT NULL,
  UNIQUE (product_id, kind, value)
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  phone TEXT NOT NULL,
  created_at TEXT NOT NULL,
  newsletter INTEGER NOT NULL DEFAULT 0 CHECK (newsletter IN (0, 1))
);

CREATE TABLE reviews (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products (id),
  user_id INTEGER REFERENCES users (id),
  author TEXT NOT NULL,
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX reviews_product ON reviews (product_id);

CREATE TABLE addresses (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  label TEXT NOT NULL,
  name TEXT NOT NULL,
  street TEXT NOT NULL,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  country TEXT NOT NULL,
  phone TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1))
);

CREATE TABLE payment_methods (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  brand TEXT NOT NULL,
  last4 TEXT NOT NULL,
  exp_month INTEGER NOT NULL,
  exp_year INTEGER NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1))
);

CREATE TABLE carts (
  id INTEGER PRIMARY KEY,
  user_id INTEGER UNIQUE REFERENCES users (id),
  token TEXT NOT NULL UNIQUE
);

CREATE TABLE cart_items (
  id INTEGER PRIMARY KEY,
  cart_id INTEGER NOT NULL REFERENCES carts (id),
  product_id INTEGER NOT NULL REFERENCES products (id),
  size TEXT,
  color TEXT,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  UNIQUE (cart_id, product_id, size, color)
);

CREATE TABLE coupons (
  code TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('percent', 'fixed')),
  value INTEGER NOT NULL,
  min_subtotal_cents INTEGER NOT NULL DEFAULT 0,
  expires_at TEXT,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))
);

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  number TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users (id),
  status TEXT NOT NULL
    CHECK (status IN ('placed', 'shipped', 'delivered', 'cancelled', 'returned')),
  created_at TEXT NOT NULL,
  ship_name TEXT NOT NULL,
  ship_street TEXT NOT NULL,
  ship_city TEXT NOT NULL,
  ship_state TEXT NOT NULL,
  ship_zip TEXT NOT NULL,
  ship_country TEXT NOT NULL,
  ship_phone TEXT NOT NULL,
  payment_brand TEXT NOT NULL,
  payment_last4 TEXT NOT NULL,
  -- the saved card it was paid with (none for a card typed in at checkout)
  payment_method_id INTEGER,
  subtotal_cents INTEGER NOT NULL,
  shipping_cents INTEGER NOT NULL,
  tax_cents INTEGER NOT NULL,
  discount_cents INTEGER NOT NULL DEFAULT 0,
  total_cents INTEGER NOT NULL,
  coupon_code TEXT,
  tracking_number TEXT
);
CREATE INDEX orders_user ON orders (user_id);

CREATE TABLE order_items (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  product_id INTEGER NOT NULL REFERENCES products (id),
  name TEXT NOT NULL,
  size TEXT,
  color TEXT,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  unit_price_cents INTEGER NOT NULL
);
CREATE INDEX order_items_order ON order_items (order_id);

CREATE TABLE returns (
  id INTEGER PRIMARY KEY,
  number TEXT NOT NULL UNIQUE,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  reason TEXT NOT NULL,
  refund_method TEXT NOT NULL CHECK (refund_method IN ('original', 'store_credit')),
  status TEXT NOT NULL DEFAULT 'requested'
    CHECK (status IN ('requested', 'received', 'refunded', 'cancelled')),
  created_at TEXT NOT NULL
);

CREATE TABLE return_items (
  id INTEGER PRIMARY KEY,
  return_id INTEGER NOT NULL REFERENCES returns (id),
  order_item_id INTEGER NOT NULL REFERENCES order_items (id),
  quantity INTEGER NOT NULL CHECK (quantity > 0)
);

CREATE TABLE wishlist_items (
  user_id INTEGER NOT NULL REFERENCES users (id),
  product_id INTEGER NOT NULL REFERENCES products (id),
  created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, product_id)
);
