// Reads long long but multiplies as int: the product overflows.
#include <iostream>

int main() {
    long long a, b;
    std::cin >> a >> b;
    int product = (int)((unsigned)a * (unsigned)b);
    std::cout << product << "\n";
}
